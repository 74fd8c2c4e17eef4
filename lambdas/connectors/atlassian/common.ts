// What the Confluence and Jira sources share: Atlassian's REST authentication as the platform's
// atlassian-python-api client sends it (username + password or API token as HTTP Basic; a personal
// access token as Bearer), the mutual-exclusion rules of the platform's connection configs, and the
// error text of Atlassian's answers. There is no official Atlassian client for Node: both sources
// speak the documented REST APIs through rest-client.ts (outbound policy, retries, Retry-After).
// Credentials go to an https:// url only (atlassianClearText, secure-transport.ts): at validation and
// in authHeader, before every request.
import type { z } from 'zod';
import type { ConnectorConfig } from '../definition';
import { literalUrlProblem } from '../../net/outbound';
import { clearTextProblem } from '../secure-transport';

/** Why url may not get the config's password, API token or personal access token (plain http://). */
export function atlassianClearText(c: { url?: unknown; password?: unknown; api_token?: unknown; token?: unknown }): string | undefined {
  const secret = c.password ? 'password' : c.api_token ? 'API token' : c.token ? 'personal access token' : undefined;
  return typeof c.url === 'string' && secret ? clearTextProblem(c.url, 'url', secret) : undefined;
}

export interface AtlassianAuthConfig extends ConnectorConfig {
  url: string;
  username: string;
  password?: string | null;
  api_token?: string | null;
  token?: string | null;
  cloud?: boolean | null;
}

/** Issues of the auth fields, as the platform's model_post_init raises them. */
export function authIssues(c: ConnectorConfig, ctx: z.RefinementCtx, kind: 'confluence' | 'jira'): void {
  const secret = kind === 'confluence' ? (c.password || c.api_token) : c.password;
  if (kind === 'confluence' && c.password && c.api_token) ctx.addIssue({ code: 'custom', path: ['api_token'], message: 'both password and api_token provided, only one allowed' });
  if (secret && c.token) ctx.addIssue({ code: 'custom', path: ['token'], message: 'basic auth (username and password) and a personal access token (token) are mutually exclusive' });
  if (!secret && !c.token) ctx.addIssue({ code: 'custom', path: [kind === 'confluence' ? 'api_token' : 'password'], message: `no form of auth provided: give ${kind === 'confluence' ? 'password or api_token' : 'password (or an API token in it)'} with username, or token` });
  if (c.cloud && c.token && !secret) ctx.addIssue({ code: 'custom', path: ['token'], message: 'cloud authentication requires username and an API token (personal access tokens are for Server/Data Center)' });
  const clear = atlassianClearText(c);
  if (clear) ctx.addIssue({ code: 'custom', path: ['url'], message: clear });
  if (typeof c.url === 'string') {
    if (!/^https?:\/\/[^/\s]+/i.test(c.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url must be an http(s) URL of the site' });
    else {
      const problem = literalUrlProblem(c.url);
      if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    }
  }
}

/** The Authorization header: Basic username:(password|api_token), or Bearer token. */
export function authHeader(c: AtlassianAuthConfig): string {
  const clear = atlassianClearText(c);
  if (clear) throw new Error(clear);
  const secret = c.password || c.api_token;
  if (secret) return `Basic ${Buffer.from(`${c.username}:${secret}`).toString('base64')}`;
  if (c.token) return `Bearer ${c.token}`;
  throw new Error('no credentials: give password or api_token with username, or token');
}

export function secretsOf(c: AtlassianAuthConfig): string[] {
  const out = [c.password, c.api_token, c.token].filter((s): s is string => typeof s === 'string' && s.length > 0);
  const basic = c.password || c.api_token;
  if (basic) out.push(Buffer.from(`${c.username}:${basic}`).toString('base64'));
  return out;
}

/**
 * Atlassian's own text of an error body: v2 `{errors:[{status, code, title, detail}]}`, v1
 * `{statusCode, message}`, Jira `{errorMessages:[...], errors:{field: msg}}`, else the raw text.
 */
export function atlassianErrorText(body: string): string | undefined {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    if (Array.isArray(j.errors) && j.errors.length) {
      return j.errors.map((e: { code?: string; title?: string; detail?: string | null }) => [e.code, e.title, e.detail].filter(Boolean).join(': ')).join('; ');
    }
    const parts: string[] = [];
    if (Array.isArray(j.errorMessages)) parts.push(...j.errorMessages.map(String));
    if (j.errors && typeof j.errors === 'object' && !Array.isArray(j.errors)) parts.push(...Object.entries(j.errors).map(([k, v]) => `${k}: ${String(v)}`));
    if (typeof j.message === 'string') parts.push(j.message);
    return parts.length ? parts.join('; ') : undefined;
  } catch {
    return undefined;
  }
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
