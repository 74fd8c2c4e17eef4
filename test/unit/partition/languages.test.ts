import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyLanguages, detectLanguages, iso639_3, tesseractCode } from '../../../lambdas/engine/partition/languages';
import { partitionDocument } from '../../../lambdas/engine/partition/pipeline';
import { parsePartitionForm } from '../../../lambdas/engine/partition/params';
import { ValidationError } from '../../../lambdas/errors';

describe('detectLanguages', () => {
  it('detects English and French prose', () => {
    assert.deepEqual(detectLanguages('We arrived in the dead of night. We had been tracking the maleficar for days, and the village was quiet when we came.'), ['eng']);
    assert.deepEqual(detectLanguages("Les bases de données multidimensionnelles sont utilisées pour l'analyse en ligne des données de l'entreprise."), ['fra']);
  });
  it('takes short ASCII text as English', () => {
    assert.deepEqual(detectLanguages('Quarterly report'), ['eng']);
    assert.deepEqual(detectLanguages(''), ['eng']);
  });
  it('adds scripts that make up a sizeable share (Korean next to English)', () => {
    const langs = detectLanguages('안녕하세요 반갑습니다 이것은 한국어 문장입니다. This is an English sentence about documents and tables.');
    assert.ok(langs.includes('kor'));
    assert.ok(langs.includes('eng'));
  });
  it('maps codes between ISO 639 and Tesseract', () => {
    assert.equal(iso639_3('en'), 'eng');
    assert.equal(iso639_3('chi_sim'), 'zho');
    assert.equal(tesseractCode('zho'), 'chi_sim');
    assert.equal(tesseractCode('fra'), 'fra');
  });
  it('takes Han characters as Japanese next to kana and as Korean inside Hangul text', () => {
    assert.deepEqual(detectLanguages('株式会社極洋の連結株主資本等変動計算書は当期首残高と当期変動額を示します'), ['jpn']);
    assert.deepEqual(detectLanguages('大韓民國 헌법 제1조 대한민국은 민주공화국이다 모든 권력은 국민으로부터 나온다'), ['kor']);
    assert.deepEqual(detectLanguages('中华人民共和国是工人阶级领导的人民民主专政的社会主义国家'), ['zho']);
  });
});

const ENGLISH = 'The committee reviewed the annual budget and approved the new spending plan for the schools.';
const FRENCH = "Le comité a examiné le budget annuel et approuvé le nouveau plan de dépenses pour les écoles.";
const KOREAN = '위원회는 연간 예산을 검토하고 학교를 위한 새로운 지출 계획을 승인했습니다.';
const JAPANESE = '委員会は年間予算を検討し、学校のための新しい支出計画を承認しました。';

describe('languages per element', () => {
  const els = () => [ENGLISH, FRENCH, KOREAN, JAPANESE, ''].map((text) => ({ text, metadata: {} as { languages?: string[] } }));

  it('detects each element on its own when asked', () => {
    const e = els();
    applyLanguages(e, [], true);
    assert.deepEqual(e.map((x) => x.metadata.languages), [['eng'], ['fra'], ['kor'], ['jpn'], detectLanguages([ENGLISH, FRENCH, KOREAN, JAPANESE].join('\n'))]);
  });

  it('gives every element the document languages otherwise, and requested languages always win', () => {
    const e = els();
    applyLanguages(e, [], false);
    assert.equal(new Set(e.map((x) => JSON.stringify(x.metadata.languages))).size, 1);
    const r = els();
    applyLanguages(r, ['deu'], true);
    for (const x of r) assert.deepEqual(x.metadata.languages, ['deu']);
  });

  it('is the detect_language_per_element form field, through the pipeline', async () => {
    const opts = parsePartitionForm({ detect_language_per_element: ['true'], strategy: ['fast'] }).options;
    assert.equal(opts.detectLanguagePerElement, true);
    assert.equal(parsePartitionForm({}).options.detectLanguagePerElement, false);
    assert.throws(() => parsePartitionForm({ detect_language_per_element: ['maybe'] }), (e: unknown) => e instanceof ValidationError && JSON.stringify(e).includes('detect_language_per_element'));
    const data = new TextEncoder().encode([ENGLISH, FRENCH, KOREAN].join('\n\n'));
    const r = await partitionDocument({ data, filename: 'mixed.txt' }, opts);
    assert.deepEqual(r.elements.map((e) => e.metadata.languages), [['eng'], ['fra'], ['kor']]);
    const whole = await partitionDocument({ data, filename: 'mixed.txt' }, { strategy: 'fast' });
    assert.equal(new Set(whole.elements.map((e) => JSON.stringify(e.metadata.languages))).size, 1);
  });
});

describe('OCR language folder', () => {
  it('replaces a dangling link left in its folder by an earlier process with the same pid', async () => {
    const { langPathFor } = await import('../../../lambdas/engine/partition/ocr/tesseract');
    const { mkdirSync, readFileSync, rmSync, symlinkSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = join(tmpdir(), `tessdata-${process.pid}-eng+kor`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    symlinkSync('/nonexistent/worktree/kor.traineddata.gz', join(dir, 'kor.traineddata.gz'));
    try {
      assert.equal(langPathFor(['eng', 'kor']), dir);
      assert.ok(readFileSync(join(dir, 'kor.traineddata.gz')).length > 1000, 'the language data is readable');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is removed when the OCR pools shut down (a later call makes it again)', async () => {
    const { langPathFor, shutdownOcr } = await import('../../../lambdas/engine/partition/ocr/tesseract');
    const { existsSync } = await import('node:fs');
    const dir = langPathFor(['eng', 'fra']);
    assert.ok(existsSync(dir));
    await shutdownOcr();
    assert.equal(existsSync(dir), false, `${dir} is left behind`);
    assert.equal(langPathFor(['eng', 'fra']), dir);
    assert.ok(existsSync(dir));
    await shutdownOcr();
    assert.equal(existsSync(dir), false);
  });
});
