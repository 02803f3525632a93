import type { Environment } from '../../lib/scope.js';

export interface ApiKeyRow {
  id: string;
  org_id: string;
  environment: Environment;
  created_by: string;
  name: string;
  key_hash: string;
  masked_key: string;
  rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null;
  expires_at: Date | null;
  allowed_ips: string[];
  allowed_endpoints: string[];
  metadata: Record<string, unknown>;
  is_active: boolean;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CreateApiKeyInput {
  name: string;
  environment?: Environment;
  rate_limit_per_minute?: number;
  rate_limit_per_day?: number;
  expires_in_days?: number;
  allowed_ips?: string[];
  allowed_endpoints?: string[];
  metadata?: Record<string, unknown>;
}

export interface UpdateApiKeyInput {
  name?: string;
  is_active?: boolean;
  rate_limit_per_minute?: number | null;
  rate_limit_per_day?: number | null;
  allowed_ips?: string[];
}

export function keyStatus(k: ApiKeyRow, now = new Date()): 'active' | 'inactive' | 'revoked' | 'expired' {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && k.expires_at <= now) return 'expired';
  return k.is_active ? 'active' : 'inactive';
}

/** The API shape: never the hash, never the secret (the create response adds `key` once). */
export function presentApiKey(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    environment: k.environment,
    masked_key: k.masked_key,
    status: keyStatus(k),
    is_active: k.is_active,
    rate_limit_per_minute: k.rate_limit_per_minute,
    rate_limit_per_day: k.rate_limit_per_day,
    expires_at: k.expires_at,
    allowed_ips: k.allowed_ips,
    allowed_endpoints: k.allowed_endpoints,
    metadata: k.metadata,
    created_by: k.created_by,
    last_used_at: k.last_used_at,
    revoked_at: k.revoked_at,
    created_at: k.created_at,
    updated_at: k.updated_at,
  };
}
