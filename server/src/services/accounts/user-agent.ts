import Bowser from 'bowser';

/** What a user agent says of the browser and system, for people to recognise a device. */
export interface DeviceDescription {
  /** e.g. "Chrome 156". */
  browser: string | null;
  /** e.g. "Linux", "Windows 10", "macOS Catalina", "iOS 18". */
  system: string | null;
}

function named(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  return version ? `${name} ${version}` : name;
}

/** Major versions only: the rest changes every few weeks and tells a person nothing. */
export function describeUserAgent(userAgent: string | null): DeviceDescription {
  if (!userAgent?.trim()) return { browser: null, system: null };
  const { browser, os } = Bowser.parse(userAgent);
  return {
    browser: named(browser.name, browser.version?.split('.')[0]),
    system: named(os.name, os.versionName ?? os.version?.split('.')[0]),
  };
}

/** "Chrome 156 on Linux", or whichever half is known. */
export function deviceLabel({ browser, system }: DeviceDescription): string {
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'an unknown browser';
}
