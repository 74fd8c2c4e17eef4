import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectLanguages, iso639_3, tesseractCode } from '../../../lambdas/engine/partition/languages';

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
});
