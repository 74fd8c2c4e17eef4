// Secrets at rest. With KMS_KEY_ID (AWS) values are encrypted by KMS; with SECRETS_KEY_FILE (local)
// by AES-256-GCM under a 32-byte key kept in that file (created on first use, mode 0600).
// Sealed values are tagged ("kms:" / "aes:") so a reader knows which box opened them.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import type { SecretBox } from '../domain/ports';
import { config } from '../config';
import { kmsClient } from './aws-clients';

export class LocalKeySecretBox implements SecretBox {
  private key: Buffer | undefined;
  constructor(private readonly keyFile: string) {}

  private loadKey(): Buffer {
    if (this.key) return this.key;
    if (!existsSync(this.keyFile)) {
      mkdirSync(dirname(this.keyFile), { recursive: true });
      writeFileSync(this.keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    const key = Buffer.from(readFileSync(this.keyFile, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`secrets key file ${this.keyFile} must hold 32 base64 bytes`);
    this.key = key;
    return key;
  }

  async seal(plain: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.loadKey(), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `aes:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
  }

  async open(sealed: string): Promise<string> {
    if (!sealed.startsWith('aes:')) throw new Error('not sealed by the local key box');
    const raw = Buffer.from(sealed.slice(4), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.loadKey(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export class KmsSecretBox implements SecretBox {
  constructor(private readonly keyId: string) {}

  async seal(plain: string): Promise<string> {
    const out = await kmsClient().send(new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(plain, 'utf8') }));
    return `kms:${Buffer.from(out.CiphertextBlob!).toString('base64')}`;
  }

  async open(sealed: string): Promise<string> {
    const out = await kmsClient().send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(sealed.slice(4), 'base64') }),
    );
    return Buffer.from(out.Plaintext!).toString('utf8');
  }
}

let box: SecretBox | undefined;

export function secretBox(): SecretBox {
  if (box) return box;
  const c = config();
  if (c.KMS_KEY_ID) box = new KmsSecretBox(c.KMS_KEY_ID);
  else if (c.SECRETS_KEY_FILE) box = new LocalKeySecretBox(c.SECRETS_KEY_FILE);
  else throw new Error('no secrets key configured: set KMS_KEY_ID (AWS) or SECRETS_KEY_FILE (local)');
  return box;
}

/** Resolved on first use, so functions that never touch a secret need no key configured. */
export const lazySecretBox: SecretBox = {
  seal: (plain) => secretBox().seal(plain),
  open: (sealed) => secretBox().open(sealed),
};

export function resetSecretBox(): void {
  box = undefined;
}
