// The tenant scope every org-owned read and write carries: an organization and one of its two
// environments. Live and test data never mix (see docs/api.md, "Authentication, keys and limits").

export type Environment = 'live' | 'test';

export interface Scope {
  orgId: string;
  environment: Environment;
}
