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

/**
 * Parses a request body strictly and with namespaces. A document type declaration is refused
 * outright, so no entity is ever declared, let alone expanded (no XML bomb, no external entity);
 * nesting is bounded so a hostile body cannot exhaust the stack.
 */
export function parseXml(text: string, maxDepth = 64): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let failure: Error | null = null;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('doctype', () => {
    failure ??= new XmlBodyError('Document type declarations are not accepted');
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
    if (stack.length >= maxDepth) failure ??= new XmlBodyError('XML nested too deeply');
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
    else root = element;
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
  try {
    parser.write(text).close();
  } catch (err) {
    failure ??= err as Error;
  }
  if (failure) throw new XmlBodyError((failure as Error).message);
  if (!root) throw new XmlBodyError('Empty XML document');
  return root;
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
