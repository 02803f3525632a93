export { createIdempotencyRepository, type IdempotencyRepository } from './idempotency.repository.js';
export {
  createIdempotencyService,
  keyProblem,
  keepsResponse,
  requestHash,
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_LOCK_SECONDS,
  IDEMPOTENCY_TTL_SECONDS,
  type Begun,
  type IdempotencyService,
  type IdempotentRequest,
  type StoredResponse,
} from './idempotency.service.js';
