import { errors, type FieldIssue } from '../../lib/errors.js';
import type { Stamps } from '../access/stamps.js';
import type { Environment, Scope } from '../../lib/scope.js';
import type { ApiKeysRepository } from './api-keys.repository.js';
import { presentApiKey, type CreateApiKeyInput, type UpdateApiKeyInput } from './api-keys.types.js';
import { parseEndpointRule } from './endpoint-rules.js';
import { generateApiKey } from './key-format.js';
import { validateIpRule } from './ip-rules.js';
import { boundByParent, type BoundedFields } from './key-bounds.js';

function checkLists(input: { allowed_ips?: string[]; allowed_endpoints?: string[] }): void {
  const issues: FieldIssue[] = [];
  input.allowed_ips?.forEach((ip, i) => {
    const problem = validateIpRule(ip);
    if (problem) issues.push({ field: `allowed_ips[${i}]`, message: `"${ip}" ${problem}` });
  });
  input.allowed_endpoints?.forEach((e, i) => {
    const parsed = parseEndpointRule(e);
    if (typeof parsed === 'string') issues.push({ field: `allowed_endpoints[${i}]`, message: `"${e}" ${parsed}` });
  });
  if (issues.length) throw errors.validation(issues.map((x) => `${x.field}: ${x.message}`).join('; '), issues);
}

function refuse(issues: FieldIssue[]): never {
  throw errors.forbidden(
    `An API key can only make or change keys at most as permissive as itself: ${issues.map((x) => `${x.field} ${x.message}`).join('; ')}`,
    issues,
  );
}

export function createApiKeysService(deps: { repo: ApiKeysRepository; stamps: Stamps; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  /** The calling key's own row (its bounds), or null for a person's session. */
  async function callerKey(scope: Scope, callerKeyId: string | undefined) {
    if (!callerKeyId) return null;
    const row = await deps.repo.get(scope, callerKeyId);
    if (!row || row.revoked_at) throw errors.unauthorized('Invalid API key');
    return row;
  }

  return {
    /** `callerKeyId`: the caller is itself an API key, whose bounds the new key must stay within (key-bounds.ts). */
    async create(scope: Scope & { userId: string; callerKeyId?: string }, input: CreateApiKeyInput) {
      checkLists(input);
      const environment: Environment = input.environment ?? scope.environment;
      const parent = await callerKey(scope, scope.callerKeyId);
      const wanted: BoundedFields = {
        expiresAt: input.expires_in_days ? new Date(now().getTime() + input.expires_in_days * 86_400_000) : undefined,
        allowedIps: input.allowed_ips,
        allowedEndpoints: input.allowed_endpoints,
        rateLimitPerMinute: input.rate_limit_per_minute,
        rateLimitPerDay: input.rate_limit_per_day,
      };
      let v = wanted;
      if (parent) {
        const bounded = boundByParent(parent, wanted, { fill: true });
        // A sandbox key that could mint live keys would let test credentials reach live data.
        if (environment !== scope.environment)
          bounded.issues.unshift({
            field: 'environment',
            message: `must be ${scope.environment}, the creating key's mode`,
          });
        if (bounded.issues.length) refuse(bounded.issues);
        v = bounded.values;
      }
      const gen = generateApiKey(environment);
      const row = await deps.repo.insert({
        orgId: scope.orgId,
        environment,
        createdBy: scope.userId,
        name: input.name,
        hash: gen.hash,
        masked: gen.masked,
        rateLimitPerMinute: v.rateLimitPerMinute ?? null,
        rateLimitPerDay: v.rateLimitPerDay ?? null,
        expiresAt: v.expiresAt ?? null,
        allowedIps: v.allowedIps ?? [],
        allowedEndpoints: v.allowedEndpoints ?? [],
        metadata: input.metadata ?? {},
      });
      return { ...presentApiKey(row), key: gen.secret };
    },
    async list(scope: Scope, limit: number, offset: number) {
      const { rows, total } = await deps.repo.list(scope, limit, offset);
      return { items: rows.map(presentApiKey), total };
    },
    async get(scope: Scope, id: string) {
      const row = await deps.repo.get(scope, id);
      if (!row) throw errors.notFound('API key');
      return presentApiKey(row);
    },
    async update(scope: Scope, id: string, input: UpdateApiKeyInput, callerKeyId?: string) {
      checkLists(input);
      const existing = await deps.repo.get(scope, id);
      if (!existing) throw errors.notFound('API key');
      if (existing.revoked_at) throw errors.conflict('API key is revoked and cannot be changed');
      const parent = await callerKey(scope, callerKeyId);
      if (parent) {
        // Only what the update names is checked: renaming a wider key is not widening anything.
        const { issues } = boundByParent(
          parent,
          {
            allowedIps: input.allowed_ips,
            rateLimitPerMinute: input.rate_limit_per_minute,
            rateLimitPerDay: input.rate_limit_per_day,
          },
          { fill: false },
        );
        if (issues.length) refuse(issues);
      }
      const row = await deps.repo.update(scope, id, {
        name: input.name,
        isActive: input.is_active,
        rateLimitPerMinute: input.rate_limit_per_minute,
        rateLimitPerDay: input.rate_limit_per_day,
        allowedIps: input.allowed_ips,
      });
      if (!row) throw errors.notFound('API key');
      await deps.stamps.bump('key', id);
      return presentApiKey(row);
    },
    async revoke(scope: Scope, id: string) {
      const row = await deps.repo.revoke(scope, id);
      if (!row) throw errors.notFound('API key');
      await deps.stamps.bump('key', id);
      return presentApiKey(row);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
