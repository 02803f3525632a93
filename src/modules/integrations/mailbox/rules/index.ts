export { globMatch, matchesAnyGlob, parsePatternList } from './glob.js';
export { extractAddress, matchesSender } from './sender.js';
export { compileSubjectFilter, matchesSubject, InvalidSubjectFilterError, SUBJECT_MATCH_MAX_CHARS } from './subject.js';
export { messageTooOld, sinceDate } from './age.js';
export { sanitizeFilename, extensionFor, uniqueName } from './filenames.js';
export { selectParts, emlFilename, DEFAULT_MAX_PARTS_PER_MESSAGE, type SelectPartsInput } from './select-parts.js';
export { checkMessage, senderOf, type MessageRejection } from './check-message.js';
export type { ConsumeMode, MailRuleConfig, AcceptedPart, SkippedPart, SkipReason, PartSelection } from './types.js';
export { uudecode, isUuencodedTransfer } from './uudecode.js';
