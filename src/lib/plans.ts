/**
 * Organization plans. `self_hosted`: no per-minute cap for the organization (API keys keep their
 * own limits); what the first organization of an installation gets unless the operator chooses
 * otherwise (DEFAULT_PLAN).
 */
export const PLANS = ['free', 'pro', 'enterprise', 'self_hosted'] as const;
export type Plan = (typeof PLANS)[number];
