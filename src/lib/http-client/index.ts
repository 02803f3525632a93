export { isForbiddenAddress, type AddressVerdict } from './ip-policy.js';
export { createAllowList, parseAllowList, type AllowList } from './allow-list.js';
export {
  safePost,
  createSafeHttpClient,
  type SafePostOptions,
  type SafeResponse,
  type SafeFetchErrorCode,
  type SafeHttpClient,
  type SafeHttpClientOptions,
} from './safe-fetch.js';
export { createAgents, type AgentOptions, type AgentPair } from './agents.js';
export { systemResolver, type Resolver } from './guarded-lookup.js';
