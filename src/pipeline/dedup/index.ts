export { fingerprint, sampleLevel, signatureSimilarity, BANDS, SLOTS, type Fingerprint } from './minhash.js';
export { compareCandidates, MIN_SHINGLES, NEAR_DUPLICATE_THRESHOLD, type Candidate } from './similarity.js';
