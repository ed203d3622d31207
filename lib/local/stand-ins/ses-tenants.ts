import { randomUUID } from 'node:crypto';

/** The local account the stand-in plays (its ARNs). */
const ACCOUNT = '000000000000';
const POLICY = /^arn:[a-z0-9-]+:ses:[a-z0-9-]+:aws:reputation-policy\/(none|standard|strict)$/;

interface Tenant {
  readonly id: string;
  readonly arn: string;
  /** Associated resources, as `configuration-set/<name>` or `identity/<name>`. */
  readonly resources: Set<string>;
  /** The tenant's sending status: DISABLED while paused (by SES's policy, or by its owner). */
  status: 'ENABLED' | 'DISABLED' | 'REINSTATED';
  policy: string;
}

/** An SES refusal: HTTP status, error type and message. */
export interface Refusal {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

/**
 * SES tenants as the stand-in keeps them: tenants, their configuration sets and identities, the
 * reputation policy, the sending status; and which tenant and configuration set each send named.
 */
export interface TenantState {
  readonly tenants: Map<string, Tenant>;
  readonly configurationSets: Set<string>;
  /** By email_id tag: the tenant and configuration set the SendEmail named. */
  readonly sends: Map<string, { tenant: string | undefined; configurationSet: string | undefined }>;
  /** Pauses a tenant's sending as SES's reputation policy does (a test switch); false if unknown. */
  pause(name: string): boolean;
  /** Lets a paused tenant send again, as SES does once its review clears it (a test switch); false if unknown. */
  reinstate(name: string): boolean;
}

export const newTenantState = (): TenantState => {
  const tenants = new Map<string, Tenant>();
  return {
    tenants,
    configurationSets: new Set(),
    sends: new Map(),
    pause: (name) => {
      const tenant = tenants.get(name);
      if (tenant) tenant.status = 'DISABLED';
      return tenant !== undefined;
    },
    reinstate: (name) => {
      const tenant = tenants.get(name);
      if (tenant) tenant.status = 'REINSTATED';
      return tenant !== undefined;
    },
  };
};

const ok = (body: unknown = {}) => ({ status: 200, body });
const fail = (status: number, type: string, message: string) => ({ status, type, body: { message } });
const NAME = /^[\w-]{1,64}$/;

/** `configuration-set/<name>` or `identity/<name>` of a resource ARN (any region of the local account). */
const resourceOf = (arn: string): string | undefined => /^arn:aws:ses:[a-z0-9-]+:\d{12}:(.+)$/.exec(arn)?.[1];

/**
 * The tenant and configuration-set calls of SES v2: undefined when the request is none of them.
 * `identityExists` says whether an email identity exists (for associations).
 */
export const tenantCall = (
  state: TenantState,
  method: string,
  path: string,
  input: Record<string, any>,
  identityExists: (name: string) => boolean,
): { status: number; type?: string; body: unknown } | undefined => {
  if (method === 'POST' && path === '/v2/email/configuration-sets') {
    const name = String(input.ConfigurationSetName ?? '');
    if (!NAME.test(name)) return fail(400, 'BadRequestException', `Invalid configuration set name ${name}.`);
    if (state.configurationSets.has(name))
      return fail(400, 'AlreadyExistsException', `Configuration set <${name}> already exists.`);
    state.configurationSets.add(name);
    return ok();
  }
  const destination = /^\/v2\/email\/configuration-sets\/([^/]+)\/event-destinations$/.exec(path);
  if (method === 'POST' && destination) {
    const name = decodeURIComponent(destination[1]!);
    if (!state.configurationSets.has(name))
      return fail(404, 'NotFoundException', `Configuration set <${name}> does not exist.`);
    return ok();
  }
  if (method === 'POST' && path === '/v2/email/tenants') {
    const name = String(input.TenantName ?? '');
    if (!NAME.test(name)) return fail(400, 'BadRequestException', `Invalid tenant name ${name}.`);
    if (state.tenants.has(name)) return fail(400, 'AlreadyExistsException', `Tenant ${name} already exists.`);
    const id = randomUUID();
    const tenant: Tenant = {
      id,
      arn: `arn:aws:ses:us-east-1:${ACCOUNT}:tenant/${name}/${id}`,
      resources: new Set(),
      status: 'ENABLED',
      policy: 'arn:aws:ses:us-east-1:aws:reputation-policy/standard',
    };
    state.tenants.set(name, tenant);
    return ok({ TenantName: name, TenantId: id, TenantArn: tenant.arn, SendingStatus: tenant.status });
  }
  if (method === 'POST' && path === '/v2/email/tenants/get') {
    const name = String(input.TenantName ?? '');
    const tenant = state.tenants.get(name);
    if (!tenant) return fail(404, 'NotFoundException', `Tenant ${name} does not exist.`);
    return ok({
      Tenant: { TenantName: name, TenantId: tenant.id, TenantArn: tenant.arn, SendingStatus: tenant.status },
    });
  }
  if (method === 'POST' && path === '/v2/email/tenants/resources') {
    const name = String(input.TenantName ?? '');
    const tenant = state.tenants.get(name);
    if (!tenant) return fail(404, 'NotFoundException', `Tenant ${name} does not exist.`);
    const resource = resourceOf(String(input.ResourceArn ?? ''));
    const [kind, resourceName = ''] = (resource ?? '').split(/\/(.*)/);
    const exists =
      kind === 'configuration-set'
        ? state.configurationSets.has(resourceName)
        : kind === 'identity'
          ? identityExists(resourceName)
          : false;
    if (!exists) return fail(404, 'NotFoundException', `Resource ${String(input.ResourceArn)} does not exist.`);
    if (tenant.resources.has(resource!))
      return fail(400, 'AlreadyExistsException', `Resource is already associated with tenant ${name}.`);
    tenant.resources.add(resource!);
    return ok();
  }
  const entity = /^\/v2\/email\/reputation\/entities\/RESOURCE\/([^/]+)\/(policy|customer-managed-status)$/.exec(path);
  if (method === 'PUT' && entity) {
    const arn = decodeURIComponent(entity[1]!);
    const tenant = [...state.tenants.values()].find((t) => t.arn === arn);
    if (!tenant) return fail(404, 'NotFoundException', `Reputation entity ${arn} does not exist.`);
    if (entity[2] === 'policy') {
      if (!POLICY.test(String(input.ReputationEntityPolicy ?? '')))
        return fail(400, 'BadRequestException', `Invalid reputation policy ${String(input.ReputationEntityPolicy)}.`);
      tenant.policy = String(input.ReputationEntityPolicy);
    } else {
      const status = String(input.SendingStatus ?? '');
      if (!['ENABLED', 'DISABLED', 'REINSTATED'].includes(status))
        return fail(400, 'BadRequestException', `Invalid sending status ${status}.`);
      tenant.status = status as Tenant['status'];
    }
    return ok();
  }
  return undefined;
};

/**
 * SES's checks of a SendEmail that names a tenant: the tenant exists, its configuration set and
 * the sender's identity are associated with it, and its sending is not paused.
 */
export const refuseTenantSend = (state: TenantState, input: Record<string, any>): Refusal | undefined => {
  const name = input.TenantName as string | undefined;
  if (name === undefined) return undefined;
  const tenant = state.tenants.get(name);
  if (!tenant) return { status: 404, type: 'NotFoundException', message: `Tenant ${name} does not exist.` };
  const set = input.ConfigurationSetName as string | undefined;
  if (!set || !tenant.resources.has(`configuration-set/${set}`))
    return {
      status: 400,
      type: 'BadRequestException',
      message: `Configuration set ${set ?? '(none)'} is not associated with tenant ${name}.`,
    };
  const domain =
    String(input.FromEmailAddress ?? '')
      .split('@')[1]
      ?.replace(/>$/, '') ?? '';
  if (!tenant.resources.has(`identity/${domain}`))
    return {
      status: 400,
      type: 'BadRequestException',
      message: `Identity ${domain} is not associated with tenant ${name}.`,
    };
  if (tenant.status === 'DISABLED')
    return {
      status: 400,
      type: 'SendingPausedException',
      message: `Sending is paused for tenant ${name}.`,
    };
  return undefined;
};
