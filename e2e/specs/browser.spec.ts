import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiCreateFolder, apiUploadFiles, itemNames } from '../support/drive';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A folder or file of the page's lists (not the Quick Access copy). */
const item = (page: Page, name: string) =>
  page.locator('[role="listbox"][aria-label="Files"], [role="listbox"][aria-label="Folders"]').getByRole('option', { name, exact: true });
const row = (page: Page, name: string) => page.getByRole('main').getByRole('row', { name, exact: true });
const dialog = (page: Page, name?: string) => page.getByRole('dialog', name ? { name } : undefined);

async function menuAction(page: Page, name: string, action: string): Promise<void> {
  await item(page, name).click({ button: 'right' });
  await page
    .getByRole('menu', { name: `Actions for ${name}` })
    .getByRole('menuitem', { name: action })
    .click();
}

async function confirmYes(page: Page, title: string): Promise<void> {
  await dialog(page, title).getByRole('button', { name: 'Yes' }).click();
  await dialog(page, title).waitFor({ state: 'detached' });
}

/** Signs up a fresh account, seeds it through the API and reloads home. */
async function freshDrive(prefix: string, seed: (page: Page) => Promise<void> = async () => undefined) {
  const { context, page } = await newSession(browser, server.baseUrl);
  await createAccount(page, uniqueEmail(prefix));
  await seed(page);
  await page.reload();
  await page.getByRole('heading', { name: 'Home Files' }).waitFor();
  return { context, page };
}

describe('organizing', () => {
  it('creates, renames, moves (entering a folder by a second click), trashes, restores and deletes', async () => {
    let archive = { _id: '' };
    const { context, page } = await freshDrive('organize', async (p) => {
      await apiUploadFiles(p, ['report.pdf', 'notes.txt']);
      await apiCreateFolder(p, 'Docs');
    });
    await item(page, 'report.pdf').waitFor();
    await screenshot(page, 'browser-home-grid');

    await page.getByRole('button', { name: 'ADD NEW' }).click();
    await page.getByRole('menuitem', { name: 'Create Folder' }).click();
    await dialog(page, 'Create Folder').getByRole('button', { name: 'Create' }).click();
    await dialog(page, 'Create Folder').getByRole('alert').getByText('Please Enter a Name', { exact: true }).waitFor();
    await dialog(page, 'Create Folder').getByRole('textbox').fill('Projects');
    await dialog(page, 'Create Folder').getByRole('button', { name: 'Create' }).click();
    await item(page, 'Projects').waitFor();

    await menuAction(page, 'Projects', 'Rename');
    await dialog(page, 'Rename').getByRole('textbox').fill('Plans');
    await dialog(page, 'Rename').getByRole('button', { name: 'Rename' }).click();
    await toast(page, 'Renamed');
    await item(page, 'Plans').waitFor();
    const plans = (await page.evaluate(() => document.querySelector('[aria-label="Plans"]')?.getAttribute('data-item-id'))) ?? '';
    archive = await apiCreateFolder(page, 'Archive', plans);

    await menuAction(page, 'notes.txt', 'Rename');
    await dialog(page, 'Rename').getByRole('textbox').fill('notes-2024.txt');
    await dialog(page, 'Rename').getByRole('textbox').press('Enter');
    await item(page, 'notes-2024.txt').waitFor();

    // Move by popup: one click selects "Plans", a second one enters it, then "Archive" is the target.
    await menuAction(page, 'report.pdf', 'Move');
    const move = dialog(page, 'Move report.pdf');
    await move.getByTestId('move-target').getByText('Move to home').waitFor();
    await move.getByRole('option', { name: 'Plans' }).click();
    await move.getByTestId('move-target').getByText('Move to Plans').waitFor();
    await move.getByRole('option', { name: 'Plans' }).click();
    await move.getByRole('button', { name: 'Choose Plans' }).waitFor();
    await move.getByRole('option', { name: 'Archive' }).click();
    await move.getByTestId('move-target').getByText('Move to Archive').waitFor();
    await screenshot(page, 'browser-move-popup');
    await move.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'File Moved');
    await item(page, 'report.pdf').waitFor({ state: 'detached' });

    await menuAction(page, 'Docs', 'Move');
    await dialog(page, 'Move Docs').getByRole('option', { name: 'Plans' }).click();
    await dialog(page, 'Move Docs').getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Folder Moved');
    await item(page, 'Docs').waitFor({ state: 'detached' });

    await item(page, 'Plans').dblclick();
    await page.waitForURL(`**/folder/${plans}`);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Plans' }).waitFor();
    await item(page, 'Archive').waitFor();
    expect(await itemNames(page, 'Folders')).toEqual(['Docs', 'Archive']);
    await item(page, 'Archive').dblclick();
    await page.waitForURL(`**/folder/${archive._id}`);
    await item(page, 'report.pdf').waitFor();
    await screenshot(page, 'browser-folder');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(`**/folder/${plans}`);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL('**/home');

    await menuAction(page, 'notes-2024.txt', 'Trash');
    await dialog(page, 'Move to trash?').getByText('Items in the trash will eventually be deleted.').waitFor();
    await confirmYes(page, 'Move to trash?');
    await toast(page, 'Trashed');
    await menuAction(page, 'Plans', 'Trash');
    await confirmYes(page, 'Move to trash?');
    await item(page, 'Plans').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL('**/trash');
    await page.getByText('Items in the trash may be automatically deleted depending on the servers settings').waitFor();
    await item(page, 'notes-2024.txt').waitFor();
    await item(page, 'Plans').waitFor();
    await screenshot(page, 'browser-trash');

    await menuAction(page, 'notes-2024.txt', 'Restore');
    await confirmYes(page, 'Restore item?');
    await toast(page, 'Restored');
    await item(page, 'notes-2024.txt').waitFor({ state: 'detached' });

    await item(page, 'Plans').dblclick();
    await page.waitForURL(`**/folder-trash/${plans}`);
    await item(page, 'Archive').waitFor();
    expect((await itemNames(page, 'Folders')).sort()).toEqual(['Archive', 'Docs']);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Plans' }).click();
    expect(await page.getByRole('menu').getByRole('menuitem').allTextContents()).toEqual(['Restore', 'Delete']);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await dialog(page, 'Delete folder?').getByText('You will not be able to recover this folder.').waitFor();
    await confirmYes(page, 'Delete folder?');
    await toast(page, 'Deleted');
    await page.waitForURL('**/trash');
    await page.getByRole('heading', { name: 'Trash', level: 2 }).waitFor();
    await page.getByText('No files').waitFor();
    expect(await itemNames(page, 'Folders')).toEqual([]);

    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await item(page, 'notes-2024.txt').waitFor();
    await context.close();
  });
});

describe('multi-select', () => {
  it('the bar moves, downloads, trashes, restores and deletes several items', async () => {
    const { context, page } = await freshDrive('multi', async (p) => {
      await apiCreateFolder(p, 'Box');
      await apiCreateFolder(p, 'Target');
      await apiUploadFiles(p, ['a.txt', 'b.txt', 'c.txt']);
    });
    const bar = page.getByRole('toolbar', { name: 'Selected items' });

    await item(page, 'a.txt').click();
    await item(page, 'b.txt').click({ modifiers: ['Control'] });
    await bar.getByText('2 selected').waitFor();
    await item(page, 'c.txt').click();
    await bar.getByText('3 selected').waitFor();
    await item(page, 'c.txt').click();
    await bar.getByText('2 selected').waitFor();
    await expect
      .poll(() => bar.getByRole('button').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))))
      .toEqual(['Clear selection', 'Trash', 'Move', 'Download']);

    const [zip] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Download' }).click()]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);

    await bar.getByRole('button', { name: 'Move' }).click();
    const move = dialog(page, 'Move 2 items');
    await expect.poll(() => move.getByRole('searchbox').count()).toBe(0);
    await move.getByRole('option', { name: 'Target' }).click();
    await move.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Items Moved');
    await bar.waitFor({ state: 'detached' });
    await item(page, 'a.txt').waitFor({ state: 'detached' });

    await item(page, 'Box').click({ modifiers: ['Control'] });
    await item(page, 'c.txt').click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Trash' }).click();
    await confirmYes(page, 'Move to trash?');
    await toast(page, 'Trashed');
    await item(page, 'Box').waitFor({ state: 'detached' });

    const [single] = await Promise.all([page.waitForEvent('download'), menuAction(page, 'Target', 'Download')]);
    expect(single.suggestedFilename()).toMatch(/\.zip$/);

    await page.getByRole('link', { name: 'Trash' }).click();
    await item(page, 'Box').click({ modifiers: ['Meta'] });
    await item(page, 'c.txt').click();
    await bar.getByText('2 selected').waitFor();
    await expect
      .poll(() => bar.getByRole('button').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))))
      .toEqual(['Clear selection', 'Restore', 'Delete']);
    await bar.getByRole('button', { name: 'Restore' }).click();
    await confirmYes(page, 'Restore items?');
    await toast(page, 'Restored');
    await page.getByText('No files').waitFor();

    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await item(page, 'Box').click({ modifiers: ['Control'] });
    await item(page, 'c.txt').click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Trash' }).click();
    await confirmYes(page, 'Move to trash?');
    await item(page, 'c.txt').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Trash' }).click();
    await item(page, 'Box').click({ modifiers: ['Control'] });
    await item(page, 'c.txt').click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Delete' }).click();
    await dialog(page, 'Delete items?').getByText('You will not be able to recover these items.').waitFor();
    await confirmYes(page, 'Delete items?');
    await toast(page, 'Deleted');
    await page.getByText('No files').waitFor();

    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await item(page, 'Target').dblclick();
    await item(page, 'a.txt').waitFor();
    const [file] = await Promise.all([page.waitForEvent('download'), menuAction(page, 'a.txt', 'Download')]);
    expect(file.suggestedFilename()).toBe('a.txt');
    await context.close();
  });
});

describe('views', () => {
  it('list/grid view and the sort order survive a reload', async () => {
    const { context, page } = await freshDrive('views', async (p) => {
      for (const name of ['b.txt', 'c.txt', 'a.txt']) await apiUploadFiles(p, [name]);
      for (const name of ['Beta', 'Alpha']) await apiCreateFolder(p, name);
    });
    await item(page, 'a.txt').waitFor();
    await item(page, 'Alpha').waitFor();
    expect(await itemNames(page, 'Files')).toEqual(['a.txt', 'c.txt', 'b.txt']);
    expect(await itemNames(page, 'Folders')).toEqual(['Alpha', 'Beta']);

    await page.getByRole('button', { name: 'List view' }).click();
    await row(page, 'a.txt').waitFor();
    expect(await page.getByRole('grid', { name: 'Files' }).getByRole('columnheader').allTextContents()).toEqual([
      'Name',
      'Size',
      'Created',
      'Actions',
    ]);
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('name');
    await page.getByRole('button', { name: /Sort direction/ }).click();
    await page.waitForFunction(
      () => document.querySelector('[role="grid"] [role="row"][aria-selected]')?.getAttribute('aria-label') === 'a.txt',
    );
    await screenshot(page, 'browser-home-list');

    await page.reload();
    await row(page, 'a.txt').waitFor();
    await item(page, 'Alpha').waitFor();
    expect(await itemNames(page, 'Files')).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await itemNames(page, 'Folders')).toEqual(['Alpha', 'Beta']);
    await expect.poll(() => page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => page.getByRole('button', { name: /Sort direction/ }).getAttribute('aria-label'))
      .toBe('Sort direction: ascending');
    await expect.poll(() => row(page, 'a.txt').getByRole('gridcell').nth(2).textContent()).toMatch(/^\d\d\/\d\d\/\d\d \d\d:\d\d(am|pm)$/);

    await page.getByRole('button', { name: /Sort direction/ }).click();
    await page.waitForFunction(
      () => document.querySelector('[role="grid"] [role="row"][aria-selected]')?.getAttribute('aria-label') === 'c.txt',
    );
    await page.getByRole('button', { name: 'Grid view' }).click();
    await page.reload();
    await item(page, 'c.txt').waitFor();
    await item(page, 'Beta').waitFor();
    expect(await itemNames(page, 'Files')).toEqual(['c.txt', 'b.txt', 'a.txt']);
    expect(await itemNames(page, 'Folders')).toEqual(['Beta', 'Alpha']);
    await context.close();
  });
});

describe('search bar', () => {
  it('lists folders first, opens results, submits to the section search routes', async () => {
    let invoices = { _id: '' };
    let old = { _id: '' };
    const { context, page } = await freshDrive('search', async (p) => {
      await apiUploadFiles(p, ['invoice-jan.pdf']);
      await apiUploadFiles(p, ['invoice-feb.pdf', 'holiday.jpg']);
      invoices = await apiCreateFolder(p, 'Invoices 2024');
      old = await apiCreateFolder(p, 'Old invoices');
    });
    const box = page.getByRole('searchbox', { name: 'Search files and folders' });
    const dropdown = page.getByTestId('search-dropdown');

    await box.fill('invoice');
    await dropdown.getByRole('option').first().waitFor();
    expect(await dropdown.getByRole('option').allTextContents()).toEqual([
      'Invoices 2024',
      'Old invoices',
      'PDFinvoice-feb.pdf',
      'PDFinvoice-jan.pdf',
    ]);
    await dropdown.getByRole('option', { name: 'Invoices 2024' }).click();
    await page.waitForURL(`**/folder/${invoices._id}`);
    await expect.poll(() => dropdown.count()).toBe(0);

    await box.fill('zzz');
    await dropdown.getByText('No Results', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Files', exact: true }).click();
    await expect.poll(() => dropdown.count()).toBe(0);

    await box.fill('invoice');
    await box.press('Enter');
    await page.waitForURL('**/search/invoice');
    await page.getByRole('heading', { name: 'Search', exact: true }).waitFor();
    await item(page, 'invoice-jan.pdf').waitFor();
    expect(await itemNames(page, 'Files')).toEqual(['invoice-feb.pdf', 'invoice-jan.pdf']);
    expect(await itemNames(page, 'Folders')).toEqual(['Old invoices', 'Invoices 2024']);
    await screenshot(page, 'browser-search');

    await box.fill('');
    await box.press('Enter');
    await page.waitForURL('**/home');

    await menuAction(page, 'Old invoices', 'Trash');
    await confirmYes(page, 'Move to trash?');
    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL('**/trash');
    await box.fill('old');
    await dropdown.getByRole('option', { name: 'Old invoices' }).click();
    await page.waitForURL(`**/folder-trash/${old._id}`);
    await box.fill('old');
    await box.press('Enter');
    await page.waitForURL('**/search-trash/old');
    await item(page, 'Old invoices').waitFor();
    await context.close();
  });
});
