import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { deleteItem, getItem, queryAll, transact, updateItem } from '../../table/ops.ts';
import { isApiError } from '../../errors/api-error.ts';
import { findContact, type Contact } from '../contacts/contact.ts';
import { removeContact } from '../contacts/delete-contact.ts';
import { updateContact } from '../contacts/update-contact.ts';
import { addToSegment } from '../segments/add-to-segment.ts';
import { getCachedTeam } from '../teams/team.ts';
import { sendEmail } from '../emails/send-emails.ts';
import type { Caller } from '../caller.ts';
import { parseDuration, type Step } from './graph.ts';
import { stepFromItem, type Run, type RunStep } from './run.ts';
import { evaluate, resolveVar, type RuleContext } from './conditions.ts';
import { iso, queueUrl, scheduleName, stepJob } from './jobs.ts';
import type { ConnectionType } from './vocabulary.ts';

/** What one step does, by type: each acts once even when its job runs again (the engine, engine.ts, calls it). */

/** The first event of `name` the run's contact sent at or after `since` that passes the filter, if any. */
const heardSince = async (
  deps: Deps,
  run: Run,
  contact: Contact | undefined,
  name: string,
  filter: unknown,
  since: string,
): Promise<{ id: string; payload: Record<string, unknown> } | undefined> => {
  const sent = await queryAll(deps, {
    pk: keys.automation.sentEventPartition(run.teamId, run.contactId, name),
    from: since,
  });
  for (const e of sent) {
    if (!filter || (await evaluate(filter as never, await contextOf(deps, { ...run, payload: e.payload }, contact))))
      return { id: e.id, payload: e.payload };
  }
  return undefined;
};

export const contextOf = async (deps: Deps, run: Run, contact: Contact | undefined): Promise<RuleContext> => ({
  contact,
  event: run.payload,
  lastEmail: async () => {
    const steps = await queryAll(deps, {
      pk: keys.automation.stepPartition(run.teamId, run.id),
      prefix: keys.automation.stepPrefix,
    });
    const last = steps
      .map(stepFromItem)
      .filter((s) => s.type === 'send_email' && s.status === 'completed' && s.emailId)
      .at(-1);
    return last ? await getItem(deps, keys.email.item(run.teamId, last.emailId!), false) : undefined;
  },
});

/** The caller an automation sends as: its team, with full access and no sender restriction. */
const automationCaller = async (deps: Deps, run: Run): Promise<Caller | undefined> => {
  const team = await getCachedTeam(deps, run.teamId);
  return team ? { team, keyId: `automation:${run.automationId}`, scope: 'full_access', domainId: null } : undefined;
};

/** What a step did: its connection to follow, its output; or its refusal (the run fails) or a wait. */
export type Outcome =
  | { readonly branch: ConnectionType; readonly output: Record<string, unknown>; readonly skipped?: boolean }
  | { readonly error: Record<string, unknown> }
  | { readonly wait: true };

export const execute = async (deps: Deps, run: Run, step: Step, rec: RunStep): Promise<Outcome> => {
  const contact = await findContact(deps, run.teamId, run.contactId);
  const c = step.config;
  switch (step.type) {
    case 'trigger':
      return { branch: 'default', output: {} };
    case 'delay':
    case 'wait_for_event': {
      const span = step.type === 'delay' ? c.duration : c.timeout;
      const dueAt = span ? (rec.dueAt ?? Date.parse(rec.createdAt) + parseDuration(span)!) : undefined;
      if (step.type === 'delay' && deps.clock.now() >= dueAt!)
        return { branch: 'default', output: { waited_until: new Date(dueAt!).toISOString() } };
      if (
        step.type === 'wait_for_event' &&
        rec.status === 'waiting' &&
        dueAt !== undefined &&
        deps.clock.now() >= dueAt
      ) {
        await deleteItem(deps, keys.automation.waiting(run.teamId, run.contactId, c.event_name, run.id, rec.n));
        return { branch: 'timeout', output: { timed_out_at: new Date(dueAt).toISOString() } };
      }
      if (step.type === 'wait_for_event') {
        const waiting = keys.automation.waiting(run.teamId, run.contactId, c.event_name, run.id, rec.n);
        await transact(deps, [
          {
            put: {
              ...waiting,
              type: 'automation_waiting',
              automation_id: run.automationId,
              run_id: run.id,
              n: rec.n,
              filter_rule: c.filter_rule ?? null,
            },
          },
        ]);
        // An event the contact sent since the run reached this step (before the wait was listening) resumes it at once;
        // one sent later finds the waiting item. Both may try: the step's end is one conditional write.
        const heard = await heardSince(deps, run, contact, c.event_name, c.filter_rule, rec.createdAt);
        if (heard) {
          await deleteItem(deps, waiting);
          return { branch: 'event_received', output: { event_id: heard.id, payload: heard.payload } };
        }
      }
      const marked = await updateItem(
        deps,
        keys.automation.step(run.teamId, run.id, rec.n),
        {
          set: {
            status: 'waiting',
            started_at: rec.startedAt ?? iso(deps),
            ...(dueAt !== undefined ? { due_at: dueAt } : {}),
          },
        },
        { attr: 'status', in: ['pending', 'running', 'waiting'] },
      );
      if (dueAt !== undefined && marked)
        await deps.scheduler.schedule({
          name: scheduleName(run.id, rec.n),
          at: dueAt,
          queueUrl: queueUrl(deps),
          body: stepJob(run, rec.n),
        });
      return { wait: true };
    }
    case 'condition': {
      const met = await evaluate(c as never, await contextOf(deps, run, contact));
      return { branch: met ? 'condition_met' : 'condition_not_met', output: { result: met } };
    }
    case 'send_email': {
      if (!contact) return { error: { name: 'not_found', message: 'The contact no longer exists.' } };
      if (await getItem(deps, keys.email.item(run.teamId, rec.emailId!)))
        return { branch: 'default', output: { email_id: rec.emailId } };
      // An unsubscribed contact gets no automation mail, as it gets no broadcast; the run goes on.
      if (contact.unsubscribed)
        return { branch: 'default', output: { skipped: 'The contact is unsubscribed.' }, skipped: true };
      const caller = await automationCaller(deps, run);
      if (!caller) return { error: { name: 'not_found', message: 'The team no longer exists.' } };
      const ctx = await contextOf(deps, run, contact);
      const variables = Object.fromEntries(
        Object.entries((c.template.variables ?? {}) as Record<string, unknown>).map(([k, v]) => [
          k,
          resolveVar(v, ctx),
        ]),
      );
      try {
        await sendEmail(
          deps,
          caller,
          {
            to: contact.email,
            template: { id: c.template.id, variables },
            ...(c.from ? { from: c.from } : {}),
            ...(c.subject ? { subject: c.subject } : {}),
            ...(c.reply_to ? { reply_to: c.reply_to } : {}),
            ...(c.topic_id ? { topic_id: c.topic_id } : {}),
            tags: [
              { name: 'automation_id', value: run.automationId },
              { name: 'automation_run_id', value: run.id },
            ],
          } as never,
          { emailId: rec.emailId! },
        );
      } catch (error) {
        if (!isApiError(error)) throw error;
        // A recipient who cannot be mailed (suppressed, opted out of the topic) skips the send; the run goes on.
        if (error.name === 'all_recipients_suppressed')
          return { branch: 'default', output: { skipped: error.message }, skipped: true };
        return { error: { name: error.name, message: error.message } };
      }
      deps.metrics.addMetric('AutomationEmailsSent', 'Count', 1);
      return { branch: 'default', output: { email_id: rec.emailId } };
    }
    case 'contact_update': {
      if (!contact) return { error: { name: 'not_found', message: 'The contact no longer exists.' } };
      const ctx = await contextOf(deps, run, contact);
      const change: Record<string, unknown> = {};
      for (const f of ['first_name', 'last_name', 'unsubscribed'] as const)
        if (c[f] !== undefined) change[f] = resolveVar(c[f], ctx);
      if (c.properties)
        change.properties = Object.fromEntries(
          Object.entries(c.properties as Record<string, unknown>).map(([k, v]) => [k, resolveVar(v, ctx)]),
        );
      try {
        await updateContact(deps, run.teamId, contact.id, change as never, 'api');
      } catch (error) {
        if (!isApiError(error)) throw error;
        return { error: { name: error.name, message: error.message } };
      }
      return { branch: 'default', output: { contact_id: contact.id } };
    }
    case 'contact_delete':
      // Gone meanwhile (another removal) is done as well.
      if (contact) await removeContact(deps, run.teamId, contact, 'api', false);
      return { branch: 'default', output: { contact_id: run.contactId } };
    case 'add_to_segment': {
      if (!contact) return { error: { name: 'not_found', message: 'The contact no longer exists.' } };
      try {
        await addToSegment(deps, run.teamId, contact.id, c.segment_id);
      } catch (error) {
        if (!isApiError(error)) throw error;
        return { error: { name: error.name, message: error.message } };
      }
      return { branch: 'default', output: { segment_id: c.segment_id } };
    }
  }
};
