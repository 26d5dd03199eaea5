import { ensureBuilt, ensureDependencies } from './lib.mjs';

ensureDependencies();
ensureBuilt();
