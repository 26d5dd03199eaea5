import { SaxesParser, type SaxesTagNS } from 'saxes';

export const DAV_NS = 'DAV:';

/** An element of a request body, with its namespace resolved. */
export interface XmlElement {
  ns: string;
  local: string;
  attrs: { ns: string; local: string; value: string }[];
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export class XmlBodyError extends Error {}

const WRITE_SLICE = 16 * 1024;

/**
 * Parses a request body strictly and with namespaces, piece by piece as it arrives. A document
 * type declaration is refused outright, so no entity is ever declared, let alone expanded (no XML
 * bomb, no external entity); nesting is bounded so a hostile body cannot exhaust the stack, and
 * the element count so it cannot build a huge tree.
 */
export class XmlReader {
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private readonly stack: XmlElement[] = [];
  private root: XmlElement | null = null;
  private failure: Error | null = null;
  private count = 0;

  constructor(
    private readonly maxDepth = 64,
    private readonly maxElements = Infinity,
  ) {
    const { parser, stack } = this;
    parser.on('error', (err) => {
      this.failure ??= err;
    });
    parser.on('doctype', () => {
      this.failure ??= new XmlBodyError('Document type declarations are not accepted');
    });
    parser.on('opentag', (tag) => {
      const node = tag as SaxesTagNS;
      const element: XmlElement = {
        ns: node.uri,
        local: node.local,
        attrs: Object.values(node.attributes)
          .filter((a) => a.prefix !== 'xmlns' && !(a.prefix === '' && a.local === 'xmlns'))
          .map((a) => ({ ns: a.uri, local: a.local, value: a.value })),
        children: [],
      };
      if (stack.length >= this.maxDepth) this.failure ??= new XmlBodyError('XML nested too deeply');
      if (++this.count > this.maxElements) this.failure ??= new XmlBodyError(`XML bodies may hold at most ${this.maxElements} elements`);
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else this.root = element;
      stack.push(element);
    });
    parser.on('text', (text) => {
      if (stack.length > 0) stack[stack.length - 1]!.children.push(text);
    });
    parser.on('cdata', (text) => {
      if (stack.length > 0) stack[stack.length - 1]!.children.push(text);
    });
    parser.on('closetag', () => {
      stack.pop();
    });
  }

  /** Parses the next piece; throws at the first problem, so a bad body is not read to its end. */
  write(text: string): void {
    // In slices: a piece can be all of a body that arrived while the request waited, and the
    // parser would go on to its end after the first problem.
    for (let at = 0; at < text.length; at += WRITE_SLICE) {
      try {
        this.parser.write(text.slice(at, at + WRITE_SLICE));
      } catch (err) {
        this.failure ??= err as Error;
      }
      this.check();
    }
  }

  close(): XmlElement {
    try {
      this.parser.close();
    } catch (err) {
      this.failure ??= err as Error;
    }
    this.check();
    if (!this.root) throw new XmlBodyError('Empty XML document');
    return this.root;
  }

  private check(): void {
    if (this.failure) throw new XmlBodyError(this.failure.message);
  }
}

export function parseXml(text: string, maxDepth = 64): XmlElement {
  const reader = new XmlReader(maxDepth);
  reader.write(text);
  return reader.close();
}

export function elements(node: XmlElement): XmlElement[] {
  return node.children.filter((c): c is XmlElement => typeof c !== 'string');
}

export function child(node: XmlElement, ns: string, local: string): XmlElement | undefined {
  return elements(node).find((e) => e.ns === ns && e.local === local);
}

export function textOf(node: XmlElement): string {
  return node.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Serialises nodes as a self-contained fragment: every element declares its own namespace, so the
 * fragment keeps its meaning wherever it is placed later (a dead property's value, a lock owner).
 */
export function serializeFragment(nodes: XmlNode[]): string {
  return nodes.map(serializeNode).join('');
}

function serializeNode(node: XmlNode): string {
  if (typeof node === 'string') return escapeXml(node);
  const attrs = node.attrs
    .map((a, i) =>
      a.ns ? ` xmlns:a${i}="${escapeXml(a.ns)}" a${i}:${a.local}="${escapeXml(a.value)}"` : ` ${a.local}="${escapeXml(a.value)}"`,
    )
    .join('');
  return `<${node.local} xmlns="${escapeXml(node.ns)}"${attrs}>${serializeFragment(node.children)}</${node.local}>`;
}

/** An element for a property of any namespace, with `value` (already XML) inside. */
export function propertyElement(ns: string, local: string, value: string): string {
  if (ns === DAV_NS) return value === '' ? `<D:${local}/>` : `<D:${local}>${value}</D:${local}>`;
  const open = ns === '' ? `<${local} xmlns=""` : `<x:${local} xmlns:x="${escapeXml(ns)}"`;
  const close = ns === '' ? `</${local}>` : `</x:${local}>`;
  return value === '' ? `${open}/>` : `${open}>${value}${close}`;
}
