// Keep-alive agents whose connection pools are partitioned by SSRF policy. Node's default pool
// key is host:port only, so a socket opened under a permissive allow-list could otherwise be
// handed to a request made under a strict one without any lookup happening.
import http from 'node:http';
import https from 'node:https';

/** Request option carrying the policy identity into `getName`. */
export const POLICY_KEY_OPTION = 'docpipePolicyKey';

type WithPolicy = { [POLICY_KEY_OPTION]?: string };

class PolicyHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs): string {
    const key = (options as WithPolicy | undefined)?.[POLICY_KEY_OPTION] ?? '';
    return `${super.getName(options)}|policy=${key}`;
  }
}

class PolicyHttpsAgent extends https.Agent {
  override getName(options?: https.RequestOptions): string {
    const key = (options as WithPolicy | undefined)?.[POLICY_KEY_OPTION] ?? '';
    return `${super.getName(options)}|policy=${key}`;
  }
}

/** Options for {@link createAgents}. */
export interface AgentOptions {
  /** Max concurrent sockets per destination. Default 32. */
  maxSocketsPerHost?: number;
  /** Idle sockets kept per destination. Default 8. */
  maxFreeSockets?: number;
  /**
   * Idle time after which a pooled socket is closed, ms. Default 4000 — below the 5 s keep-alive
   * timeout common servers use, so we rarely write into a socket the peer is closing.
   */
  idleSocketMs?: number;
}

export interface AgentPair {
  http: http.Agent;
  https: https.Agent;
}

/** One pair per process (or per client); pass it to every request so connections are reused. */
export function createAgents(opts: AgentOptions = {}): AgentPair {
  const common = {
    keepAlive: true,
    maxSockets: opts.maxSocketsPerHost ?? 32,
    maxFreeSockets: opts.maxFreeSockets ?? 8,
    timeout: opts.idleSocketMs ?? 4000,
    scheduling: 'lifo' as const,
  };
  return { http: new PolicyHttpAgent(common), https: new PolicyHttpsAgent(common) };
}
