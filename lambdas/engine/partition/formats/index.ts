// Registry of the non-PDF, non-image format partitioners. Adding a format is one file plus one line here.
import type { FileType, FormatPartitioner } from '../types';
import { partitionHtml } from './html';
import { partitionText } from './text';
import { partitionMarkdown } from './markdown';
import { partitionRst } from './rst';
import { partitionOrg } from './org';
import { partitionXml } from './xml';
import { partitionDocx } from './docx';
import { partitionPptx } from './pptx';
import { partitionOdt } from './odt';
import { partitionOdp } from './odp';
import { partitionEpub } from './epub';
import { partitionRtf } from './rtf';
import { partitionEml, partitionMsg } from './email';
import { partitionDoc } from './doc';
import { partitionPpt } from './ppt';
import { partitionJson } from './json';
import { partitionCsv, partitionOds, partitionTsv, partitionXls, partitionXlsx } from './spreadsheet';

export const FORMAT_PARTITIONERS: Partial<Record<FileType, FormatPartitioner>> = {
  txt: partitionText,
  html: partitionHtml,
  md: partitionMarkdown,
  rst: partitionRst,
  org: partitionOrg,
  csv: partitionCsv,
  tsv: partitionTsv,
  xlsx: partitionXlsx,
  xls: partitionXls,
  ods: partitionOds,
  xml: partitionXml,
  json: partitionJson,
  docx: partitionDocx,
  pptx: partitionPptx,
  odt: partitionOdt,
  odp: partitionOdp,
  epub: partitionEpub,
  rtf: partitionRtf,
  eml: partitionEml,
  msg: partitionMsg,
  doc: partitionDoc,
  ppt: partitionPpt,
};
