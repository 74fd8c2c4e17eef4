// A KMS stand-in speaking the AWS JSON 1.1 protocol (X-Amz-Target: TrentService.<Operation>) for the
// real @aws-sdk/client-kms: Encrypt, Decrypt and GenerateDataKey as KMS documents them. Ciphertext
// blobs are opaque to the caller and bound to their key (AES-256-GCM under a per-key secret, the key
// id inside), so a blob opens only under the key that sealed it, and a changed byte fails as KMS
// fails (InvalidCiphertextException). It keeps every request (operation, body, signed or not).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AwsJsonError, startAwsJsonServer } from '../../local/emulators/aws-json-server';

export interface KmsRequest {
  operation: string;
  body: Record<string, unknown>;
}

export async function startKmsStandIn(keyIds: string[]) {
  const secrets = new Map(keyIds.map((k) => [k, randomBytes(32)]));
  const requests: KmsRequest[] = [];
  const keyOf = (id: unknown): string => {
    const k = [...secrets.keys()].find((arn) => arn === id || arn.endsWith(`/${String(id)}`));
    if (!k) throw new AwsJsonError('NotFoundException', `Key '${String(id)}' does not exist`);
    return k;
  };
  const seal = (keyId: string, plain: Buffer): string => {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', secrets.get(keyId)!, iv);
    const data = Buffer.concat([c.update(plain), c.final()]);
    const id = Buffer.from(keyId, 'utf8');
    const head = Buffer.alloc(2);
    head.writeUInt16BE(id.length);
    return Buffer.concat([head, id, iv, c.getAuthTag(), data]).toString('base64');
  };
  const open = (blob: Buffer): { keyId: string; plain: Buffer } => {
    try {
      const n = blob.readUInt16BE(0);
      const keyId = blob.subarray(2, 2 + n).toString('utf8');
      const rest = blob.subarray(2 + n);
      const d = createDecipheriv('aes-256-gcm', secrets.get(keyId)!, rest.subarray(0, 12));
      d.setAuthTag(rest.subarray(12, 28));
      return { keyId, plain: Buffer.concat([d.update(rest.subarray(28)), d.final()]) };
    } catch {
      throw new AwsJsonError('InvalidCiphertextException', '');
    }
  };
  const track = (operation: string, fn: (body: any) => unknown) => (body: any) => {
    requests.push({ operation, body });
    return fn(body);
  };
  const server = await startAwsJsonServer('application/x-amz-json-1.1', {
    Encrypt: track('Encrypt', (b) => {
      const keyId = keyOf(b.KeyId);
      const plain = Buffer.from(String(b.Plaintext ?? ''), 'base64');
      if (!plain.length || plain.length > 4096) throw new AwsJsonError('ValidationException', 'Plaintext must be 1 to 4096 bytes');
      return { CiphertextBlob: seal(keyId, plain), KeyId: keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    }),
    Decrypt: track('Decrypt', (b) => {
      const { keyId, plain } = open(Buffer.from(String(b.CiphertextBlob ?? ''), 'base64'));
      if (b.KeyId !== undefined && keyOf(b.KeyId) !== keyId) throw new AwsJsonError('IncorrectKeyException', 'The key ID in the request does not identify a CMK that can perform this operation.');
      return { Plaintext: plain.toString('base64'), KeyId: keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    }),
    GenerateDataKey: track('GenerateDataKey', (b) => {
      const keyId = keyOf(b.KeyId);
      const bytes = b.NumberOfBytes ?? (b.KeySpec === 'AES_128' ? 16 : 32);
      const plain = randomBytes(Number(bytes));
      return { CiphertextBlob: seal(keyId, plain), Plaintext: plain.toString('base64'), KeyId: keyId };
    }),
  });
  return { endpoint: server.endpoint, requests, stop: () => server.stop() };
}
