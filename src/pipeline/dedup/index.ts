export {
  fingerprint,
  MAX_CHARS,
  sampleLevel,
  signatureSimilarity,
  BANDS,
  ROWS,
  SLOTS,
  type Fingerprint,
} from './minhash.js';
export {
  compareCandidates,
  MIN_SHARED_SLOTS,
  MIN_SHINGLES,
  NEAR_DUPLICATE_THRESHOLD,
  type Candidate,
} from './similarity.js';
export * from './identifiers.js';
