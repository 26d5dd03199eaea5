// Installs the npm dependencies when missing or stale (what `npm start` and `npm test` do first).
import { ensureDependencies } from './lib.mjs';

ensureDependencies();
