// From a received or uploaded message to documents: part selection and the one intake loop
// every mail source shares (IMAP poller, SMTP receiver, uploaded .eml).
export { globMatch, matchesAnyGlob, parsePatternList } from './glob.js';
export { sanitizeFilename, extensionFor, uniqueName } from './filenames.js';
export { selectParts, emlFilename, DEFAULT_MAX_PARTS_PER_MESSAGE, type SelectPartsInput } from './select-parts.js';
export { uudecode, isUuencodedTransfer } from './uudecode.js';
export { parseMessage, senderOf } from './parse.js';
export { ingestMessageParts, documentIdsOf, isTnef, type IngestPartsInput, type PartOutcome } from './ingest-parts.js';
export type { ConsumeMode, PartRules, AcceptedPart, SkippedPart, SkipReason, PartSelection } from './types.js';
