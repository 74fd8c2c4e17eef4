// Registry of the non-PDF, non-image format partitioners. Adding a format is one file plus one line here.
import type { FileType, FormatPartitioner } from '../types';

export const FORMAT_PARTITIONERS: Partial<Record<FileType, FormatPartitioner>> = {};
