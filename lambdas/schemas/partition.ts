// The partition endpoint's multipart form (documentation shape; the engine's params module parses
// and validates the actual values) and its element response (spec §2.8, §4.8).
import { z } from 'zod';

const bool = z.enum(['true', 'false']);
const list = z.array(z.string());

export const PartitionForm = z
  .object({
    files: z.array(z.string().meta({ format: 'binary' })).meta({ description: 'One or more documents (part name `files`).' }),
    strategy: z.enum(['auto', 'fast', 'hi_res', 'ocr_only', 'vlm']).default('auto'),
    output_format: z.enum(['application/json', 'text/csv']).default('application/json'),
    coordinates: bool.default('false'),
    content_type: z.string().optional(),
    encoding: z.string().optional(),
    extract_image_block_types: list.optional(),
    gz_uncompressed_content_type: z.string().optional(),
    hi_res_model_name: z.string().optional(),
    include_page_breaks: bool.default('false'),
    languages: list.optional(),
    detect_language_per_element: bool.default('false').meta({ description: "Each element's metadata.languages detected from its own text (ignored when languages is given)." }),
    ocr_languages: list.optional(),
    pdf_infer_table_structure: bool.default('true'),
    skip_infer_table_types: list.optional(),
    starting_page_number: z.string().optional().meta({ description: 'integer' }),
    unique_element_ids: bool.default('false'),
    xml_keep_tags: bool.default('false'),
    include_slide_notes: bool.default('true'),
    vlm_model_provider: z.string().optional(),
    vlm_model: z.string().optional(),
    chunking_strategy: z.enum(['basic', 'by_title', 'by_page', 'by_similarity']).optional(),
    combine_under_n_chars: z.string().optional().meta({ description: 'integer' }),
    include_orig_elements: bool.default('true'),
    max_characters: z.string().optional().meta({ description: 'integer' }),
    multipage_sections: bool.default('true'),
    new_after_n_chars: z.string().optional().meta({ description: 'integer' }),
    overlap: z.string().default('0').meta({ description: 'integer' }),
    overlap_all: bool.default('false'),
    similarity_threshold: z.string().optional().meta({ description: 'number 0..1' }),
  })
  .meta({ id: 'Body_partition', description: 'Unknown fields (such as the SDK\'s split_pdf_*) are accepted and ignored.' });

export const Element = z
  .object({
    type: z.string(),
    element_id: z.string(),
    text: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    embeddings: z.array(z.number()).optional(),
  })
  .meta({ id: 'Element' });

export const PartitionResponse = z.union([z.array(Element), z.array(z.array(Element))]);
