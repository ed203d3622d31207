import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { QueueName } from '../../functions/workers.ts';

/** What a running local host tells other processes (the admin CLI, tests) about its engines. */
export interface LocalState {
  readonly pid: number;
  readonly baseUrl: string;
  readonly inboxUrl: string;
  /** The dashboard's origin. */
  readonly dashboardUrl: string;
  /** The SMTP relay's port on 127.0.0.1. */
  readonly smtpPort: number;
  /** The inbound SMTP listener's port on 127.0.0.1 (the local MX of the mailboxes). */
  readonly inboundPort: number;
  readonly tableName: string;
  readonly cloud: boolean;
  readonly env: Record<string, string>;
  readonly queueUrls: Record<QueueName, string>;
}

/** Where `npm start` writes its state file. */
const STATE_FILE = resolve(process.cwd(), '.data', 'local-state.json');

/** Writes the state file. */
export const writeState = (state: LocalState, file = STATE_FILE): void => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(state, null, 2));
};

/** Reads the state of a running local host, or explains how to start one. */
export const readState = (file = STATE_FILE): LocalState => {
  if (!existsSync(file))
    throw new Error(
      `no running local host found (${file} is missing): start one with \`npm start\` in another terminal`,
    );
  const state = JSON.parse(readFileSync(file, 'utf8')) as LocalState;
  try {
    process.kill(state.pid, 0);
  } catch {
    throw new Error(`the local host that wrote ${file} (pid ${state.pid}) is not running: start it with \`npm start\``);
  }
  return state;
};

/** Removes the state file on shutdown. */
export const clearState = (file = STATE_FILE): void => rmSync(file, { force: true });
