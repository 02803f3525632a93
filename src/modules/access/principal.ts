import type { Environment } from '../../lib/scope.js';
import type { Plan, Role } from '../orgs/orgs.types.js';
import type { EndpointRule } from '../api-keys/endpoint-rules.js';
import type { IpMatcher } from '../api-keys/ip-rules.js';

/** Who is calling, resolved once per request (from cache in the common case). */
export interface Principal {
  kind: 'user' | 'api_key';
  userId: string;
  email: string;
  orgId: string;
  orgName: string;
  role: Role;
  environment: Environment;
  plan: Plan;
  orgRateLimitPerMinute: number;
  /** JWT sessions: the refresh-token family. */
  sessionId?: string;
  /** A dashboard session (cookie-mode login): limited per person instead of against the plan. */
  web?: boolean;
  apiKey?: {
    id: string;
    name: string;
    rateLimitPerMinute: number | null;
    rateLimitPerDay: number | null;
  };
}

/** A cached credential plus the stamp values it was loaded under. */
export interface CachedCredential {
  principal: Principal;
  stamps: { key: string; expected: string }[];
  /** Key restrictions and expiry, checked per request without the database. */
  expiresAt: number | null;
  ipMatcher: IpMatcher | null;
  endpointRules: EndpointRule[];
  loadedAt: number;
}
