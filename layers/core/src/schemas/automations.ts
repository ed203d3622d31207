import * as v from 'valibot';
import { keepsEmpty } from './validate.ts';
import { Id, Timestamp, commaSeparated } from './common.ts';
import { MAX_AUTOMATION_STEPS } from '../limits.ts';
import {
  AUTOMATION_STATUSES,
  CONNECTION_TYPES,
  RUN_STATUSES,
  RUN_STEP_STATUSES,
  STEP_TYPES,
} from '../domain/automations/vocabulary.ts';

const Name = v.pipe(
  v.string('must be a string.'),
  v.minLength(1, 'is required.'),
  v.maxLength(256, 'must be at most 256 characters.'),
);
const Status = v.picklist(AUTOMATION_STATUSES, '`status` must be `enabled` or `disabled`.');

/** A step as sent: its key, type and config (each type's config is checked with the graph, naming the step). */
const AutomationStep = v.strictObject({
  key: v.pipe(
    v.string('each step needs a `key`.'),
    v.minLength(1, 'a step key may not be empty.'),
    v.maxLength(100, 'a step key is at most 100 characters.'),
  ),
  type: v.picklist(STEP_TYPES, `a step's \`type\` must be one of ${STEP_TYPES.join(', ')}.`),
  config: v.optional(v.record(v.string(), v.unknown(), "a step's `config` must be an object."), {}),
});

/** A connection as sent (`type` defaults to `default`). */
const AutomationConnection = v.strictObject({
  from: v.string('each connection needs `from`: a step key.'),
  to: v.string('each connection needs `to`: a step key.'),
  type: v.optional(
    v.picklist(CONNECTION_TYPES, `a connection's \`type\` must be one of ${CONNECTION_TYPES.join(', ')}.`),
    'default',
  ),
});

const Steps = v.pipe(
  v.array(AutomationStep, '`steps` must be an array of steps.'),
  v.minLength(1, '`steps` must hold at least the trigger.'),
  v.maxLength(MAX_AUTOMATION_STEPS, `\`steps\` may hold at most ${MAX_AUTOMATION_STEPS} steps.`),
);
const Connections = v.array(AutomationConnection, '`connections` must be an array of connections.');

/** POST /automations */
export const CreateAutomationRequest = v.strictObject({
  name: Name,
  status: v.optional(Status, 'disabled'),
  steps: Steps,
  connections: Connections,
});

/** PATCH /automations/{id}: a name, a status, or a new graph (steps and connections together). */
export const UpdateAutomationRequest = v.pipe(
  v.strictObject({
    name: v.optional(Name),
    status: v.optional(Status),
    steps: v.optional(Steps),
    // A graph of the trigger alone has no connections: `[]` is that, not the field left out.
    connections: keepsEmpty(v.optional(Connections)),
  }),
  v.check(
    (b) => (b.steps === undefined) === (b.connections === undefined),
    'Give `steps` and `connections` together: the graph is replaced whole.',
  ),
  v.check(
    (b) => b.name !== undefined || b.status !== undefined || b.steps !== undefined,
    'Give at least one of `name`, `status`, or `steps` with `connections`.',
  ),
);

/** GET /automations?status= */
export const ListAutomationsQuery = v.object({ status: v.optional(Status) });

/** An automation as lists show it. */
export const AutomationRow = v.object({
  id: Id,
  name: v.string(),
  status: v.picklist(AUTOMATION_STATUSES),
  created_at: Timestamp,
  updated_at: v.nullable(Timestamp),
});
const StepOut = v.object({ key: v.string(), type: v.picklist(STEP_TYPES), config: v.record(v.string(), v.unknown()) });
const ConnectionOut = v.object({ from: v.string(), to: v.string(), type: v.picklist(CONNECTION_TYPES) });
/** GET /automations/{id} */
export const AutomationObject = v.object({
  object: v.literal('automation'),
  ...AutomationRow.entries,
  steps: v.array(StepOut),
  connections: v.array(ConnectionOut),
});
/** POST /automations/{id}/stop */
export const StoppedAutomation = v.object({ object: v.literal('automation'), id: Id, status: v.literal('disabled') });

/** A run as lists show it. */
export const AutomationRunRow = v.object({
  id: Id,
  status: v.picklist(RUN_STATUSES),
  started_at: v.nullable(Timestamp),
  completed_at: v.nullable(Timestamp),
  created_at: Timestamp,
});
/** One executed step of a run. */
const RunStep = v.object({
  key: v.string(),
  type: v.picklist(STEP_TYPES),
  status: v.picklist(RUN_STEP_STATUSES),
  output: v.nullable(v.record(v.string(), v.unknown())),
  error: v.nullable(v.record(v.string(), v.unknown())),
  started_at: v.nullable(Timestamp),
  completed_at: v.nullable(Timestamp),
  created_at: Timestamp,
});
/** GET /automations/{id}/runs/{run_id} */
export const AutomationRunObject = v.object({
  object: v.literal('automation_run'),
  ...AutomationRunRow.entries,
  steps: v.array(RunStep),
});

/** GET /automations/{id}/runs?status=a,b */
export const ListRunsQuery = v.object({
  status: v.optional(
    v.pipe(
      v.string(),
      commaSeparated,
      v.check(
        (list) => list.every((x) => (RUN_STATUSES as readonly string[]).includes(x)),
        `must be a comma-separated list of ${RUN_STATUSES.join(', ')}.`,
      ),
    ),
  ),
});
