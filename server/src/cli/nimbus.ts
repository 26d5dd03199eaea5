import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from '../config.js';

/** One operator command: its one-line summary and what it does with its arguments; answers the exit code. */
export interface Command {
  summary: string;
  usage: string;
  run(config: Config, args: string[]): Promise<number>;
}

/** Commands load lazily: `nimbus check` never pays for the backup code and vice versa. */
const COMMANDS: Record<string, () => Promise<Command>> = {};

/** Adds a command; each command module registers itself here in `commands/index.ts`. */
export function defineCommands(commands: Record<string, () => Promise<Command>>): void {
  Object.assign(COMMANDS, commands);
}

function help(): string {
  const lines = ['Usage: npm run nimbus -- <command> [options]', '', 'Commands:'];
  for (const name of Object.keys(COMMANDS).sort()) lines.push(`  ${name}`);
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(help());
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  const command = await load();
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`${command.summary}\n\nUsage: npm run nimbus -- ${command.usage}`);
    return 0;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  return command.run(config, args);
}
