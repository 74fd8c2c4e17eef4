// Job nodes: validation of a node list (request_data.job_nodes, a template's nodes). Settings are
// parsed by each engine's own parser, so a bad setting is a 422 at job creation rather than a
// failed job later. Only the light parsers are imported here; running a node (node-runner.ts) needs
// the engines and is wired only into the job-step Lambda. Pure domain code (no AWS).
//
// No silent stand-ins: planNodes is the one check every create path goes through (jobs, workflows
// create/update, templates, workflow types), so a hosted embedding model or a VLM without usable
// credentials is refused here, at the missing field, unless the deployment allows offline stand-ins.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parsePartitionForm } from '../engine/partition/params';
import { CHUNK_NODE_SUBTYPES, parseChunkNode } from '../engine/chunking/params';
import { EMBED_PROVIDERS } from '../engine/embedding/catalog';
import { PROMPTER_SUBTYPES } from '../engine/enrichment/catalog';
import { embedCredentialIssues, embedEndpointIssues, parseEmbedNode } from '../engine/embedding/index';
import { VLM_OFFLINE_CHOICE, vlmCredentialProblem } from '../engine/partition/vlm/credentials';
import { parsePrompterNode, prompterCredentialIssues, prompterEndpointIssues } from '../engine/enrichment/settings';
import { contextualCredentialIssues, parseContextualChunking } from '../engine/chunking/contextual-settings';
import { offlineStandInsAllowed } from '../config';
import { ValidationError, type ValidationIssue } from '../errors';
import { boundedObject, jsonBodyProblem, nameString, nodeIdString, parseOr422 } from '../validation';

/** A node as sent: bounded strings, settings at most 64 KiB and 32 levels (DynamoDB holds 400 KB an item). */
export const NodeInput = z.object({
  id: nodeIdString.nullish(),
  name: nameString,
  type: z.string().min(1).max(100),
  subtype: z.string().min(1).max(100),
  settings: boundedObject('settings').nullish(),
});

/** A chain is a handful of nodes (a few prompters at most); the cap keeps a hostile list cheap to refuse. */
const MAX_NODES = 10;

export interface JobNode {
  id: string;
  name: string;
  type: NodeType;
  subtype: string;
  settings: Record<string, unknown>;
}

const PARTITION_SUBTYPES = ['unstructured_api', 'vlm', 'auto', 'fast', 'hi_res', 'ocr_only'];
const NODE_TYPES = ['partition', 'prompter', 'chunk', 'embed'] as const;

/** The subtypes each node type takes, from the engines' catalogues (published in the OpenAPI document as `x-subtypes`). */
export const NODE_SUBTYPES: Readonly<Record<NodeType, string[]>> = {
  partition: PARTITION_SUBTYPES,
  prompter: Object.keys(PROMPTER_SUBTYPES),
  chunk: Object.keys(CHUNK_NODE_SUBTYPES),
  embed: [...EMBED_PROVIDERS],
};
export type NodeType = (typeof NODE_TYPES)[number];
/**
 * The platform's order rule (Partitioner→Prompter→Chunker[→Embedder]): enrichment comes after the
 * partitioner and before the chunker (a description must be written before the text is cut and
 * embedded), and a chain may enrich more than once (image and table descriptions).
 */
/** "a partition node", "an embed node": the article of the type's name. */
const aNode = (type: string) => `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type} node`;

export const ALLOWED_NEXT: Readonly<Record<string, string[]>> = { start: ['partition'], partition: ['prompter', 'chunk', 'embed'], prompter: ['prompter', 'chunk'], chunk: ['embed'], embed: [] };
/** Node types a chain may not end on (the platform has no Partitioner→Prompter→Destination). */
const NOT_LAST = ['prompter'];

/** Partition node settings → the partition endpoint's form fields (one parser for both). */
export function partitionFields(node: { subtype: string; settings: Record<string, unknown> }): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(node.settings)) {
    if (v === undefined || v === null) continue;
    fields[k] = Array.isArray(v) ? v.map(String) : [typeof v === 'object' ? JSON.stringify(v) : String(v)];
  }
  if (node.subtype === 'vlm') {
    fields.strategy = ['vlm'];
    if (node.settings.provider) fields.vlm_model_provider = [String(node.settings.provider)];
    if (node.settings.model) fields.vlm_model = [String(node.settings.model)];
    if (node.settings.allow_fast !== undefined) fields.vlm_allow_fast = [String(node.settings.allow_fast)];
  } else if (node.subtype !== 'unstructured_api') {
    fields.strategy ??= [node.subtype];
  }
  return fields;
}

function relocate(err: unknown, loc: (string | number)[]): never {
  if (err instanceof ValidationError) {
    throw new ValidationError(err.issues.map((i) => ({ ...i, loc: [...loc, ...i.loc.filter((p) => p !== 'body')] })));
  }
  throw err;
}

/** Where a VLM partition node names its provider, for the 422 of a provider without credentials. */
function vlmField(subtype: string, settings: Record<string, unknown>): string {
  if (subtype === 'vlm') return 'provider';
  return settings.vlm_model_provider !== undefined ? 'vlm_model_provider' : 'strategy';
}

/**
 * Validates a node list and gives each node an id. `loc` locates the list in the request. `env` is
 * the deployment's environment (credentials of hosted models, ALLOW_OFFLINE_STANDINS).
 */
export function planNodes(raw: unknown, loc: (string | number)[], env: Record<string, string | undefined> = process.env): JobNode[] {
  // -- raw first: JSON.parse keeps `__proto__` keys that zod would drop silently, and depth is bounded --
  const problem = jsonBodyProblem(raw);
  if (problem) throw ValidationError.single([...loc, ...problem.path], problem.msg, 'value_error');
  const nodes = parseOr422(z.array(NodeInput).min(1).max(MAX_NODES), raw, loc);
  let previous = 'start';
  // credential problems of every node, reported together once the shapes are known to be valid
  const missing: ValidationIssue[] = [];
  const planned = nodes.map((n, i) => {
    const at = [...loc, i];
    const settings = (n.settings ?? {}) as Record<string, unknown>;
    if (!(NODE_TYPES as readonly string[]).includes(n.type)) {
      throw ValidationError.single([...at, 'type'], `Input should be 'partition', 'prompter', 'chunk' or 'embed'`, 'enum', n.type);
    }
    if (!ALLOWED_NEXT[previous]!.includes(n.type)) {
      throw ValidationError.single([...at, 'type'], `${aNode(n.type)} cannot follow ${previous === 'start' ? 'the job input' : aNode(previous)}`, 'value_error', n.type);
    }
    previous = n.type;
    if (n.type === 'partition') {
      if (!PARTITION_SUBTYPES.includes(n.subtype)) {
        throw ValidationError.single([...at, 'subtype'], `Input should be one of ${PARTITION_SUBTYPES.join(', ')}`, 'enum', n.subtype);
      }
      let options;
      try {
        options = parsePartitionForm(partitionFields({ subtype: n.subtype, settings })).options;
      } catch (err) {
        relocate(err, [...at, 'settings']);
      }
      const problem = options.strategy === 'vlm' && !offlineStandInsAllowed('vlm', env) ? vlmCredentialProblem(options.vlm, env) : undefined;
      if (problem) missing.push({ loc: [...at, 'settings', vlmField(n.subtype, settings)], msg: `${problem}; ${VLM_OFFLINE_CHOICE}`, type: 'missing' });
    } else if (n.type === 'prompter') {
      const config = parsePrompterNode(n.subtype, settings, at);
      // (the deployment's credentials never go to a node's own endpoint: refused with stand-ins allowed too)
      missing.push(...(offlineStandInsAllowed('vlm', env) ? prompterEndpointIssues(config, env, at) : prompterCredentialIssues(config, env, at)));
    } else if (n.type === 'chunk') {
      parseChunkNode(n.subtype, settings, at);
      const contextual = parseContextualChunking(settings, at);
      if (contextual && !offlineStandInsAllowed('vlm', env)) missing.push(...contextualCredentialIssues(contextual, env, at));
    } else {
      const config = parseEmbedNode(n.subtype, settings, at);
      missing.push(...(offlineStandInsAllowed('embed', env) ? embedEndpointIssues(config, env, at) : embedCredentialIssues(config, env, at)));
    }
    return { id: n.id ?? randomUUID(), name: n.name, type: n.type as JobNode['type'], subtype: n.subtype, settings };
  });
  if (NOT_LAST.includes(previous)) {
    throw ValidationError.single([...loc, nodes.length - 1, 'type'], `${aNode(previous)} must be followed by a chunk node (Partitioner→Prompter→Chunker[→Embedder])`, 'value_error', previous);
  }
  if (missing.length) throw new ValidationError(missing);
  return planned;
}

