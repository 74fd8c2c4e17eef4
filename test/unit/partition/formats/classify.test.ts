import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyText, stripBullet, isPossibleTitle, isPossibleNarrativeText, isBulletedText, isUsCityStateZip,
  isEmailAddress, isPageNumberLike, exceedsCapRatio, underNonAlphaRatio,
} from '../../../../lambdas/engine/partition/classify';

test('classifyText follows the library order of checks', () => {
  assert.equal(classifyText('• First bullet'), 'ListItem');
  assert.equal(classifyText('1. First numbered'), 'ListItem');
  assert.equal(classifyText('john.doe@example.com'), 'EmailAddress');
  assert.equal(classifyText('Doylestown, PA 18901'), 'Address');
  assert.equal(classifyText('This is a test document to use for unit tests.'), 'NarrativeText');
  assert.equal(classifyText('ITEM 1A. RISK FACTORS'), 'Title');
  assert.equal(classifyText('-----------BREAK---------'), 'UncategorizedText');
  assert.equal(classifyText('- item'), 'ListItem');
  assert.equal(classifyText('-337'), 'UncategorizedText');
  assert.equal(classifyText('\u2022item'), 'ListItem');
  assert.equal(classifyText('12345'), 'UncategorizedText');
  assert.equal(classifyText('12', { detectPageNumbers: true }), 'PageNumber');
});

test('without requested languages the verb check applies to English-looking text only', () => {
  assert.equal(classifyText('Novdiex nongv liex hufniv dav zer nier, zunxyanr niex qianrlir garhaf hufniv.'), 'NarrativeText');
  assert.equal(classifyText('http://www.example.edu/files/evaluate/tests-example.xls'), 'Title');
  assert.equal(classifyText('Important points of the plan'), 'Title');
  // (a line without closing punctuation: a sentence as written is prose in any language, see below)
  assert.equal(classifyText('Novdiex nongv liex hufniv dav zer nier', { languages: ['eng'] }), 'Title');
});

test('a contraction holds a verb, with straight or curly apostrophes (the tagger splits "don\'t" into do + n\'t)', () => {
  for (const t of ["Also, don't forget:", 'Also, don\u2019t forget:', 'We\u2019re here', "They've left"]) {
    assert.equal(classifyText(t), 'NarrativeText', t);
  }
  // typographic punctuation does not make text look foreign (the verb check still applies)
  assert.equal(classifyText('Hmm, what else\u2026'), 'Title');
  assert.equal(classifyText('O\u2019Neil Street'), 'Title');
});

test('predicates', () => {
  assert.equal(isPossibleTitle('To My Dearest Friends,'), false);
  assert.equal(isPossibleTitle('Winter Sports'), true);
  // a form's blank to fill in is not a heading
  assert.equal(isPossibleTitle('_______ at the regional level'), false);
  assert.equal(isPossibleTitle('Name: ____________'), false);
  assert.equal(isPossibleTitle('one two three four five six seven eight nine ten eleven twelve thirteen'), false);
  assert.equal(isPossibleNarrativeText('Winter Sports In The Alps'), false);
  assert.equal(isPossibleNarrativeText('The snow was falling all night and we stayed inside.'), true);
  assert.equal(exceedsCapRatio('Risk Factors Of The Company'), true);
  assert.equal(underNonAlphaRatio('----1234----'), true);
  assert.equal(isBulletedText('\u25cf item'), true);
  // an en dash opens an item only before a space: "–output" is a command's option (LaTeX sets "--" so)
  assert.equal(isBulletedText('\u2013 item'), true);
  assert.equal(isBulletedText('\u2013output The file the export is written to'), false);
  assert.equal(stripBullet('\u2013output'), '\u2013output');
  assert.equal(isUsCityStateZip('Springfield, Illinois 62701'), true);
  assert.equal(isEmailAddress('not an email'), false);
  assert.equal(isPageNumberLike('Page 3 of 10'), true);
  assert.equal(isPageNumberLike('Chapter 3'), false);
  assert.equal(stripBullet('\u2022 Bullet'), 'Bullet');
  assert.equal(stripBullet('No bullet'), 'No bullet');
});

test('cap ratio and title rules follow the current library (text_type.py)', () => {
  // all-uppercase text exceeds the cap ratio, so it is never narrative text
  assert.equal(exceedsCapRatio('GALAXY GAMING, INC.'), true);
  assert.equal(isPossibleNarrativeText('GALAXY GAMING, INC.'), false);
  assert.equal(isPossibleNarrativeText('THE COMPANY IS GROWING FAST'), false);
  // only alphabetic tokens are counted: punctuation and numbers do not dilute the ratio
  assert.equal(exceedsCapRatio('ITEM 1. Financial Statements (Unaudited)'), true);
  assert.equal(exceedsCapRatio('Zejiang Shen (1), Ruochen Zhang (2), Melissa Dell (3)'), true);
  // text without any word exceeds it
  assert.equal(exceedsCapRatio('12 34 (56)'), true);
  // multi-sentence text is never measured
  assert.equal(exceedsCapRatio('THE END. IT WAS A DARK AND STORMY NIGHT. AND THEN IT RAINED ALL DAY.'), false);
  // all-uppercase text ending in punctuation is not a title; without the punctuation it is
  assert.equal(isPossibleTitle('GALAXY GAMING, INC.'), false);
  assert.equal(isPossibleTitle('WARNING!'), false);
  assert.equal(isPossibleTitle('TABLE OF CONTENTS'), true);
  assert.equal(isPossibleTitle('Galaxy Gaming, Inc.'), true);
  assert.equal(classifyText('GALAXY GAMING, INC.'), 'UncategorizedText');
});

test('layout blocks keep the looser cap ratio (the library types them with its layout model)', () => {
  const authors = 'Zejiang Shen (1), Ruochen Zhang (2), Melissa Dell (3)';
  assert.equal(exceedsCapRatio(authors, 0.5, true), false);
  assert.equal(exceedsCapRatio('THE COMPANY IS GROWING FAST', 0.5, true), false);
  assert.equal(isPossibleNarrativeText('THE COMPANY IS GROWING FAST', { layoutBlock: true }), true);
  assert.equal(classifyText('THE COMPANY IS GROWING FAST', { layoutBlock: true }), 'NarrativeText');
  assert.equal(classifyText('THE COMPANY IS GROWING FAST'), 'Title');
});

test('a sentence as written is prose though the word list knows none of its verbs; short lines and "et al." are not', () => {
  // the library's tagger finds verbs a word list does not ("paddle"); a capitalised sentence closed
  // by punctuation is prose in any case (an HTML paragraph, a slide's note, a text box)
  assert.equal(isPossibleNarrativeText('Young ducks paddle about the lake.'), true);
  assert.equal(classifyText('Some background information here.'), 'NarrativeText');
  assert.equal(classifyText('A rectangle shape with this text inside.'), 'NarrativeText');
  // fewer than four words, no closing punctuation, a running head's "et al.", a lowercase start
  assert.equal(isPossibleNarrativeText('Ducks and swans.'), false);
  assert.equal(isPossibleNarrativeText('Notes on the second slide'), false);
  assert.equal(classifyText('J. Aligon et al.'), 'Title');
  assert.equal(isPossibleNarrativeText('notes on the second slide.'), false);
});

test('a sentence of a script without case is not "all capitals" for naming an acronym in Latin letters', () => {
  // Python's str.isupper() (the library's check) is true for Hebrew text with "PDF" in it: no cased
  // letter is lowercase. Capitals are only counted where most letters have case.
  assert.equal(classifyText('הצוות ימשיך לספור בכל שבוע עד סוף האביב, ויפרסם דוח מלא ב-PDF.'), 'NarrativeText');
  assert.equal(classifyText('يقدم الفريق تقريرا كاملا بصيغة PDF في نهاية كل شهر للمدير.'), 'NarrativeText');
  assert.equal(exceedsCapRatio('THE COMPANY IS GROWING FAST'), true);
});
