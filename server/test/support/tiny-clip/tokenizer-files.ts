/**
 * A small CLIP tokenizer in the hub's format: byte-level BPE whose word-final pieces end in `</w>`,
 * lower-cased, with CLIP's start and end tokens. The vocabulary holds every byte (so any text
 * tokenises) and whole-word pieces for the words below, which search queries and tests use.
 */
const WORDS = `a an the of at in on by with and or to from for is are this that my our
photo photos picture pictures image video selfie portrait screenshot scan document receipt
dog dogs cat cats bird horse cow sheep fish animal pet puppy kitten
beach sea ocean lake river water wave waves sand sunset sunrise sky cloud clouds sun rain snow winter summer
mountain mountains hill forest tree trees flower flowers garden park field grass
city street road car cars bus train bike boat plane bridge building house home room kitchen
man woman men women child children boy girl baby family friends people person face smile
birthday cake party wedding christmas holiday trip food dinner lunch breakfast pizza coffee
red blue green yellow white black orange pink purple brown
night day morning evening light dark old new big small happy over under near
anna tom`;

export const START_TOKEN = '<|startoftext|>';
export const END_TOKEN = '<|endoftext|>';

/** GPT-2's reversible map from bytes to printable characters, which byte-level BPE works on. */
function byteCharacters(): string[] {
  const printable = (b: number) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
  const chars: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) if (printable(b)) chars.push(String.fromCharCode(b));
  for (let b = 0; b < 256; b++) if (!printable(b)) chars.push(String.fromCharCode(256 + extra++));
  return chars;
}

/**
 * Byte-pair merges learnt from the words (most frequent pair first) until each word is one piece:
 * applied in this order, as a BPE tokenizer does, they turn every listed word into one token.
 */
function learnMerges(words: string[]): string[] {
  const split = words.map((word) => [...word].map((c, i, all) => (i === all.length - 1 ? `${c}</w>` : c)));
  const merges: string[] = [];
  for (;;) {
    const counts = new Map<string, number>();
    for (const symbols of split) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const pair = `${symbols[i]} ${symbols[i + 1]}`;
        counts.set(pair, (counts.get(pair) ?? 0) + 1);
      }
    }
    let best: string | null = null;
    let bestCount = 0;
    for (const [pair, count] of counts) {
      if (count > bestCount || (count === bestCount && best !== null && pair < best)) [best, bestCount] = [pair, count];
    }
    if (best === null) return merges;
    merges.push(best);
    const [left, right] = best.split(' ') as [string, string];
    for (const symbols of split) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        if (symbols[i] === left && symbols[i + 1] === right) symbols.splice(i, 2, left + right);
      }
    }
  }
}

export interface TokenizerFiles {
  'tokenizer.json': unknown;
  'tokenizer_config.json': unknown;
  'special_tokens_map.json': unknown;
  vocabSize: number;
  startId: number;
  endId: number;
}

export function tokenizerFiles(maxLength: number): TokenizerFiles {
  const words = [...new Set(WORDS.split(/\s+/).filter(Boolean))];
  const base = byteCharacters();
  const merges = learnMerges(words);
  const vocab: Record<string, number> = {};
  const add = (token: string) => {
    if (!(token in vocab)) vocab[token] = Object.keys(vocab).length;
  };
  for (const c of base) add(c);
  for (const c of base) add(`${c}</w>`);
  for (const merge of merges) add(merge.replace(' ', ''));
  // As in CLIP, the two specials come last: the end token has the highest id, which is how the
  // text model finds the end of a text (the arg-max of the ids).
  const startId = Object.keys(vocab).length;
  const endId = startId + 1;
  vocab[START_TOKEN] = startId;
  vocab[END_TOKEN] = endId;

  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(startId, START_TOKEN), special(endId, END_TOKEN)],
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'NFC' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Lowercase' }],
    },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        {
          type: 'Split',
          pattern: { Regex: "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+" },
          behavior: 'Removed',
          invert: true,
        },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'RobertaProcessing',
      sep: [END_TOKEN, endId],
      cls: [START_TOKEN, startId],
      trim_offsets: false,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: END_TOKEN,
      continuing_subword_prefix: '',
      end_of_word_suffix: '</w>',
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges,
    },
  };
  const specials = { bos_token: START_TOKEN, eos_token: END_TOKEN, pad_token: END_TOKEN, unk_token: END_TOKEN };
  return {
    'tokenizer.json': tokenizer,
    'tokenizer_config.json': {
      add_prefix_space: false,
      clean_up_tokenization_spaces: true,
      do_lower_case: true,
      errors: 'replace',
      model_max_length: maxLength,
      tokenizer_class: 'CLIPTokenizer',
      ...specials,
    },
    'special_tokens_map.json': specials,
    vocabSize: endId + 1,
    startId,
    endId,
  };
}
