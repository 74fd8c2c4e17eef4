// E-mail partitioners. eml (mailparser) and msg (Outlook OLE via @kenjiuno/msgreader): the eml body is
// partitioned as HTML when there is an HTML part, else as plain text; the msg body as plain text (as
// the library does), else its HTML, else its compressed RTF; every body element carries
// sent_from / sent_to / cc_recipient / bcc_recipient / subject / email_message_id. With
// processAttachments each attachment is partitioned through ctx.partitionNested and its elements
// get attached_to_filename.
import { simpleParser, type AddressObject } from 'mailparser';
import MsgReaderModule from '@kenjiuno/msgreader';
import { decompressRTF } from '@kenjiuno/decompressrtf';
import { appendAll, type Element, type ElementMetadata } from '../../elements';
import type { FormatContext, FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { capExceeded, MAX_EMAIL_ATTACHMENTS } from '../limits';
import { detectAndDecode } from './common';
import { htmlToElements } from './html';
import { textToElements } from './text';
import { rtfToHtml } from './rtf';

interface Attachment {
  filename: string;
  contentType?: string;
  data: Uint8Array;
}

function withMetadata(elements: Element[], md: ElementMetadata): Element[] {
  for (const el of elements) el.metadata = { ...el.metadata, ...md };
  return elements;
}

async function attachmentElements(attachments: Attachment[], ctx: FormatContext): Promise<Element[]> {
  if (!ctx.options.processAttachments) return [];
  if (attachments.length > MAX_EMAIL_ATTACHMENTS) throw capExceeded(`The message's attachment count (${attachments.length})`, MAX_EMAIL_ATTACHMENTS, 'attachments');
  const out: Element[] = [];
  for (const att of attachments) {
    try {
      const els = await ctx.partitionNested({ data: att.data, filename: att.filename, contentType: att.contentType });
      for (const el of els) el.metadata.attached_to_filename = ctx.filename;
      appendAll(out, els);
    } catch (err) {
      ctx.warn(`attachment ${att.filename} was not partitioned: ${(err as Error).message}`);
    }
  }
  return out;
}

function bodyElements(html: string | undefined, text: string | undefined, languages: string[]): Element[] {
  if (html && html.trim()) return htmlToElements(html, { languages });
  if (text && text.trim()) return textToElements(text, languages);
  return [];
}

function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

const stripBrackets = (id: string | undefined): string | undefined => id?.trim().replace(/^<(.*)>$/, '$1') || undefined;

function addresses(a: AddressObject | AddressObject[] | undefined, withName: boolean): string[] | undefined {
  if (!a) return undefined;
  const list = (Array.isArray(a) ? a : [a]).flatMap((o) => o.value);
  const out = list
    .map((v) => (withName && v.name ? `${v.name} <${v.address ?? ''}>` : v.address ?? v.name ?? ''))
    .filter(Boolean);
  return out.length ? out : undefined;
}

export const partitionEml: FormatPartitioner = async (data, ctx) => {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 8192)).toString('latin1');
  if (!/^[\x21-\x39\x3b-\x7e]+:/m.test(head)) {
    throw new UnprocessableDocument('eml: no RFC 822 header found (not an e-mail message?)');
  }
  let parsed;
  try {
    parsed = await simpleParser(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
    });
  } catch (err) {
    throw new UnprocessableDocument(`eml: cannot parse the message (${(err as Error).message})`);
  }
  const md: ElementMetadata = {
    sent_from: addresses(parsed.from, true),
    sent_to: addresses(parsed.to, false),
    cc_recipient: addresses(parsed.cc, false),
    bcc_recipient: addresses(parsed.bcc, false),
    subject: parsed.subject || undefined,
    email_message_id: stripBrackets(parsed.messageId),
    last_modified: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : undefined,
  };
  for (const k of Object.keys(md)) if (md[k] === undefined) delete md[k];
  const html = typeof parsed.html === 'string' ? parsed.html : undefined;
  const body = withMetadata(bodyElements(html, parsed.text, ctx.options.languages), md);
  const atts: Attachment[] = parsed.attachments
    // inline parts referenced from the HTML body (cid: images) are part of the body, not attachments
    .filter((a) => a.contentDisposition === 'attachment' || (a.filename && !a.related))
    .map((a) => ({ filename: a.filename ?? 'attachment', contentType: a.contentType, data: new Uint8Array(a.content) }));
  return [...body, ...(await attachmentElements(atts, ctx))];
};

// ---------- msg ----------

type MsgReaderCtor = new (buf: ArrayBuffer | DataView | Uint8Array) => {
  getFileData(): MsgFileData;
  getAttachment(att: unknown): { fileName: string; content: Uint8Array };
};
interface MsgFileData {
  error?: string;
  subject?: string;
  senderName?: string;
  senderEmail?: string;
  body?: string;
  html?: Uint8Array;
  bodyHtml?: string;
  headers?: string;
  messageId?: string;
  internetCodepage?: number;
  clientSubmitTime?: string;
  messageDeliveryTime?: string;
  compressedRtf?: Uint8Array;
  recipients?: { name?: string; email?: string; smtpAddress?: string; recipType?: string }[];
  attachments?: { fileName?: string; name?: string; attachMimeTag?: string; innerMsgContent?: boolean }[];
}
const MsgReader = ((MsgReaderModule as unknown as { default?: MsgReaderCtor }).default ??
  (MsgReaderModule as unknown as MsgReaderCtor));

function headerValue(headers: string | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const m = new RegExp(`^${name}:[ \\t]*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im').exec(headers);
  return m?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim();
}

/** Body of a message that only has a compressed-RTF body (PR_RTF_COMPRESSED, LZFu). */
export function msgRtfBodyElements(compressed: Uint8Array, ctx: Pick<FormatContext, 'warn'>): Element[] {
  try {
    const rtf = Buffer.from(decompressRTF(Array.from(compressed))).toString('latin1');
    return htmlToElements(rtfToHtml(rtf));
  } catch (err) {
    ctx.warn(`msg: the RTF body could not be read (${(err as Error).message})`);
    return [];
  }
}

export const partitionMsg: FormatPartitioner = async (data, ctx) => {
  const sig = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (data.length < 512 || sig.some((b, i) => data[i] !== b)) {
    throw new UnprocessableDocument('msg: not an Outlook message (OLE compound file signature missing)');
  }
  let reader: InstanceType<MsgReaderCtor>;
  let info: MsgFileData;
  try {
    reader = new MsgReader(data.slice());
    info = reader.getFileData();
  } catch (err) {
    throw new UnprocessableDocument(`msg: cannot read the message (${(err as Error).message})`);
  }
  if (info.error) throw new UnprocessableDocument(`msg: ${info.error}`);
  const recips = info.recipients ?? [];
  const addr = (r: { email?: string; smtpAddress?: string; name?: string }): string => r.smtpAddress || r.email || r.name || '';
  const pick = (type: string): string[] | undefined => {
    const l = recips.filter((r) => (r.recipType ?? 'to') === type).map(addr).filter(Boolean);
    return l.length ? l : undefined;
  };
  const from = headerValue(info.headers, 'From') ?? (info.senderEmail ? (info.senderName ? `${info.senderName} <${info.senderEmail}>` : info.senderEmail) : undefined);
  const md: ElementMetadata = {
    sent_from: from ? [from] : undefined,
    sent_to: pick('to'),
    cc_recipient: pick('cc'),
    bcc_recipient: pick('bcc'),
    subject: info.subject || undefined,
    email_message_id: stripBrackets(info.messageId ?? headerValue(info.headers, 'Message-ID')),
    last_modified: isoDate(info.clientSubmitTime ?? info.messageDeliveryTime ?? headerValue(info.headers, 'Date')),
  };
  for (const k of Object.keys(md)) if (md[k] === undefined) delete md[k];
  const html = info.bodyHtml ?? (info.html ? detectAndDecode(info.html) : undefined);
  let bodyEls =
    info.body && info.body.trim() ? textToElements(info.body, ctx.options.languages) : bodyElements(html, undefined, ctx.options.languages);
  if (!bodyEls.length && info.compressedRtf?.length) bodyEls = msgRtfBodyElements(info.compressedRtf, ctx);
  const body = withMetadata(bodyEls, md);
  const atts: Attachment[] = [];
  if (ctx.options.processAttachments) {
    for (const a of info.attachments ?? []) {
      if (a.innerMsgContent) continue;
      try {
        const file = reader.getAttachment(a);
        atts.push({ filename: file.fileName || a.fileName || a.name || 'attachment', contentType: a.attachMimeTag, data: file.content });
      } catch (err) {
        ctx.warn(`msg attachment could not be read: ${(err as Error).message}`);
      }
    }
  }
  return [...body, ...(await attachmentElements(atts, ctx))];
};
