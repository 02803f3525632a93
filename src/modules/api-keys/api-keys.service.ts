import { errors, type FieldIssue } from '../../http/errors.js';
import type { Stamps } from '../access/stamps.js';
import type { Environment } from '../orgs/orgs.types.js';
import type { ApiKeysRepository, Scope } from './api-keys.repository.js';
import { presentApiKey, type CreateApiKeyInput, type UpdateApiKeyInput } from './api-keys.types.js';
import { parseEndpointRule } from './endpoint-rules.js';
import { generateApiKey } from './key-format.js';
import { validateIpRule } from './ip-rules.js';

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

export function createApiKeysService(deps: { repo: ApiKeysRepository; stamps: Stamps; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** `viaApiKey`: the caller is itself an API key, which may only mint keys of its own mode. */
    async create(scope: Scope & { userId: string; viaApiKey?: boolean }, input: CreateApiKeyInput) {
      checkLists(input);
      const environment: Environment = input.environment ?? scope.environment;
      // A sandbox key that could mint live keys would let test credentials reach live data.
      if (scope.viaApiKey && environment !== scope.environment) {
        throw errors.forbidden(`A ${scope.environment} API key can only create ${scope.environment} keys`);
      }
      const gen = generateApiKey(environment);
      const expiresAt = input.expires_in_days ? new Date(now().getTime() + input.expires_in_days * 86_400_000) : null;
      const row = await deps.repo.insert({
        orgId: scope.orgId, environment, createdBy: scope.userId, name: input.name, hash: gen.hash, masked: gen.masked,
        rateLimitPerMinute: input.rate_limit_per_minute ?? null, rateLimitPerDay: input.rate_limit_per_day ?? null,
        expiresAt, allowedIps: input.allowed_ips ?? [], allowedEndpoints: input.allowed_endpoints ?? [],
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
    async update(scope: Scope, id: string, input: UpdateApiKeyInput) {
      checkLists(input);
      const existing = await deps.repo.get(scope, id);
      if (!existing) throw errors.notFound('API key');
      if (existing.revoked_at) throw errors.conflict('API key is revoked and cannot be changed');
      const row = await deps.repo.update(scope, id, {
        name: input.name, isActive: input.is_active, rateLimitPerMinute: input.rate_limit_per_minute,
        rateLimitPerDay: input.rate_limit_per_day, allowedIps: input.allowed_ips,
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
