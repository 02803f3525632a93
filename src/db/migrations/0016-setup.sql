-- First-run setup: the organization it creates is on the self_hosted plan by default (no
-- organization-wide per-minute cap; API keys keep their own limits).
ALTER TABLE organizations DROP CONSTRAINT organizations_plan_check;
ALTER TABLE organizations ADD CONSTRAINT organizations_plan_check
  CHECK (plan IN ('free', 'pro', 'enterprise', 'self_hosted'));
