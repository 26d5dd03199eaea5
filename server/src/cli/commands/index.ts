import { defineCommands } from '../nimbus.js';

defineCommands({
  check: () => import('./check.js').then((m) => m.checkCommand),
  backup: () => import('./backup.js').then((m) => m.backupCommand),
  restore: () => import('./restore.js').then((m) => m.restoreCommand),
  admin: () => import('./admin.js').then((m) => m.adminCommand),
  models: () => import('./models.js').then((m) => m.modelsCommand),
});
