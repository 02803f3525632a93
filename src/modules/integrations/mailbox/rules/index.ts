// Which messages a mailbox takes (sender, subject, age); which of their parts become documents
// is decided by documents/message-parts, shared with the SMTP receiver and .eml upload.
export { extractAddress, matchesSender } from './sender.js';
export { compileSubjectFilter, matchesSubject, InvalidSubjectFilterError, SUBJECT_MATCH_MAX_CHARS } from './subject.js';
export { messageTooOld, sinceDate } from './age.js';
export { checkMessage, type MessageRejection } from './check-message.js';
export type { MailRuleConfig } from './types.js';
