// The MongoDB wire protocol as the official Node driver really uses it, server side, for the local
// stand-in (test-server.ts): message framing (OP_MSG with its section kinds 0 and 1, OP_QUERY and
// OP_REPLY for legacy hellos), BSON through the `bson` package the driver itself uses, and the
// server half of SCRAM-SHA-256 (RFC 5802/7677, as mongod does it: saslStart/saslContinue and the
// speculative first step inside hello). Not imported by any handler.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Binary, BSON, type Document } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;
const CHECKSUM_PRESENT = 1;
export const MORE_TO_COME = 2;

export interface WireRequest {
  requestId: number;
  opCode: number;
  /** The command document; kind-1 sections (document sequences) merged in as arrays. */
  command: Document;
  /** The database the command addresses ($db, or the OP_QUERY namespace's). */
  db: string;
  /** OP_MSG flag: the client expects no reply (w:0 writes). */
  moreToCome: boolean;
}

/** Splits complete messages off a connection's buffer; returns them and the unread rest. */
export function readMessages(buf: Buffer): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let offset = 0;
  while (buf.length - offset >= 4) {
    const len = buf.readInt32LE(offset);
    if (len < 16) throw new Error(`invalid message length ${len}`);
    if (buf.length - offset < len) break;
    messages.push(buf.subarray(offset, offset + len));
    offset += len;
  }
  return { messages, rest: buf.subarray(offset) };
}

function cstring(buf: Buffer, at: number): { value: string; next: number } {
  const end = buf.indexOf(0, at);
  return { value: buf.toString('utf8', at, end), next: end + 1 };
}

export function parseRequest(msg: Buffer): WireRequest {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = msg.readUInt32LE(16);
    const end = msg.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
    let at = 20;
    let command: Document | undefined;
    const sequences: Record<string, Document[]> = {};
    while (at < end) {
      const kind = msg[at++];
      if (kind === 0) {
        const size = msg.readInt32LE(at);
        command = BSON.deserialize(msg.subarray(at, at + size), { promoteBuffers: false });
        at += size;
      } else if (kind === 1) {
        const size = msg.readInt32LE(at);
        const stop = at + size;
        const id = cstring(msg, at + 4);
        const docs: Document[] = [];
        for (let p = id.next; p < stop; ) {
          const dsize = msg.readInt32LE(p);
          docs.push(BSON.deserialize(msg.subarray(p, p + dsize)));
          p += dsize;
        }
        sequences[id.value] = docs;
        at = stop;
      } else {
        throw new Error(`unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!command) throw new Error('OP_MSG without a body section');
    Object.assign(command, sequences);
    return { requestId, opCode, command, db: String(command.$db ?? 'admin'), moreToCome: Boolean(flags & MORE_TO_COME) };
  }
  if (opCode === OP_QUERY) {
    const ns = cstring(msg, 20);
    const at = ns.next + 8; // numberToSkip, numberToReturn
    const size = msg.readInt32LE(at);
    let command = BSON.deserialize(msg.subarray(at, at + size));
    if (command.$query) command = command.$query as Document;
    return { requestId, opCode, command, db: ns.value.split('.')[0]!, moreToCome: false };
  }
  throw new Error(`opcode ${opCode} is not supported by the stand-in${opCode === OP_COMPRESSED ? ' (no compression was offered)' : ''}`);
}

let nextResponseId = 1;

/** The reply to a request in the request's own protocol (OP_MSG → OP_MSG, OP_QUERY → OP_REPLY). */
export function encodeReply(req: WireRequest, body: Document): Buffer {
  const doc = BSON.serialize(body);
  const header = Buffer.alloc(16);
  header.writeInt32LE(nextResponseId++, 4);
  header.writeInt32LE(req.requestId, 8);
  let payload: Buffer;
  if (req.opCode === OP_MSG) {
    header.writeInt32LE(OP_MSG, 12);
    payload = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), doc]); // flagBits 0, section kind 0
  } else {
    header.writeInt32LE(OP_REPLY, 12);
    const fixed = Buffer.alloc(20); // responseFlags, cursorID (8), startingFrom, numberReturned
    fixed.writeInt32LE(1, 16);
    payload = Buffer.concat([fixed, doc]);
  }
  header.writeInt32LE(16 + payload.length, 0);
  return Buffer.concat([header, payload]);
}

// --- SCRAM-SHA-256, server side ---

export const SCRAM_ITERATIONS = 4096; // the minimum the driver accepts; mongod's default is 15000

export interface ScramCredential {
  salt: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, text: string | Buffer) => createHmac('sha256', key).update(text).digest();

/** What mongod keeps for a SCRAM-SHA-256 user (never the password). */
export function scramCredential(password: string): ScramCredential {
  const salt = randomBytes(28);
  // The driver saslpreps the password; the stand-in's test passwords are ASCII, which SASLprep leaves as is.
  const salted = pbkdf2Sync(password, salt, SCRAM_ITERATIONS, 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  return { salt, storedKey: createHash('sha256').update(clientKey).digest(), serverKey: hmac(salted, 'Server Key') };
}

export interface ScramConversation {
  user: string;
  clientFirstBare: string;
  serverFirst: string;
  nonce: string;
}

function attrs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const m = /^([a-z])=(.*)$/.exec(part);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

const payloadText = (p: unknown) => (p instanceof Binary ? Buffer.from(p.buffer.subarray(0, p.position)) : Buffer.from(p as Uint8Array)).toString('utf8');

/** saslStart: the client-first message → the server-first message. */
export function scramStart(payload: unknown, lookup: (user: string) => ScramCredential | undefined): { conversation: ScramConversation; reply: Binary } | undefined {
  const text = payloadText(payload);
  const bare = text.replace(/^[nyp][^,]*,[^,]*,/, '');
  const a = attrs(bare);
  const user = (a.n ?? '').replace(/=2C/g, ',').replace(/=3D/g, '=');
  const cred = lookup(user);
  if (!cred || !a.r) return undefined;
  const nonce = a.r + randomBytes(24).toString('base64');
  const serverFirst = `r=${nonce},s=${cred.salt.toString('base64')},i=${SCRAM_ITERATIONS}`;
  return { conversation: { user, clientFirstBare: bare, serverFirst, nonce }, reply: new Binary(Buffer.from(serverFirst)) };
}

/** saslContinue: verifies the client proof; the server signature to send back, or undefined (wrong password). */
export function scramFinish(conv: ScramConversation, payload: unknown, cred: ScramCredential): Binary | undefined {
  const text = payloadText(payload);
  const a = attrs(text);
  if (a.r !== conv.nonce || !a.p) return undefined;
  const withoutProof = text.slice(0, text.lastIndexOf(',p='));
  const authMessage = `${conv.clientFirstBare},${conv.serverFirst},${withoutProof}`;
  const signature = hmac(cred.storedKey, authMessage);
  const proof = Buffer.from(a.p, 'base64');
  if (proof.length !== signature.length) return undefined;
  const clientKey = Buffer.from(proof.map((b, i) => b ^ signature[i]!));
  if (!timingSafeEqual(createHash('sha256').update(clientKey).digest(), cred.storedKey)) return undefined;
  return new Binary(Buffer.from(`v=${hmac(cred.serverKey, authMessage).toString('base64')}`));
}
