export { PLANS, type Plan } from '../../lib/plans.js';
import type { Plan } from '../../lib/plans.js';
/** The roles, lowest first: the member routes, the CLI and the users table's CHECK list the same. */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** viewer < member < admin < owner: a role may do everything the ones below it may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  rate_limit_per_minute: number | null;
  status: 'active' | 'suspended';
  created_at: Date;
  updated_at: Date;
}

export interface User {
  id: string;
  org_id: string;
  email: string;
  name: string | null;
  password_hash: string;
  role: Role;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export function publicUser(u: User) {
  return {
    id: u.id,
    org_id: u.org_id,
    email: u.email,
    name: u.name,
    role: u.role,
    is_active: u.is_active,
    created_at: u.created_at,
  };
}
