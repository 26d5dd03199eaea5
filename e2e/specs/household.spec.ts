import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, formMessage, login, PASSWORD, submitButton, toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiCreateFolder } from '../support/drive';
import { apiList } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
/** The first account of the server, hence its administrator, signed in for the whole file. */
let admin: { context: BrowserContext; page: Page; email: string };

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
  const session = await newSession(browser, server.baseUrl);
  admin = { ...session, email: uniqueEmail('admin') };
  await createAccount(admin.page, admin.email);
});
afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
  await server?.stop();
});

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' }).first();
const accounts = (page: Page) => page.getByRole('table', { name: 'Accounts' });
const accountRow = (page: Page, email: string) => accounts(page).getByRole('row').filter({ hasText: email });

/** Opens the admin area from the side menu, on its Users section. */
async function openAdminUsers(page: Page): Promise<void> {
  await page.goto('/home');
  await mainMenu(page).getByRole('link', { name: 'Admin' }).click();
  await page.waitForURL('**/admin');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: 'Users' }).click();
  await accountRow(page, admin.email).waitFor();
}

/** Chooses an action of an account's row menu in the admin's Users list. */
async function accountAction(page: Page, email: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page
    .getByRole('menu', { name: `Actions for ${email}` })
    .getByRole('menuitem', { name: action })
    .click();
}

/** A fresh browser profile with a new account signed in on its home page. */
async function signedInAccount(prefix: string): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const session = await newSession(browser, server.baseUrl);
  const email = uniqueEmail(prefix);
  await createAccount(session.page, email);
  return { ...session, email };
}

describe('invitations', () => {
  it('an admin invites someone, who signs up through the link in the e-mail; the link then no longer works', async () => {
    const email = uniqueEmail('invitee');
    const { page } = admin;
    await openAdminUsers(page);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const inviteDialog = page.getByRole('dialog', { name: 'Invite someone' });
    await inviteDialog.getByRole('textbox', { name: 'E-mail address of the person to invite' }).fill(email);
    await inviteDialog.getByRole('button', { name: 'Send invitation' }).click();
    const created = page.getByRole('dialog', { name: 'Invitation created' });
    await created.getByText(`An invitation was sent to ${email}.`).waitFor();
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });
    await expect.poll(() => accountRow(page, email).textContent()).toContain('Invited');
    await screenshot(page, 'admin-users-invited');

    const link = await server.mail.linkTo(email, `${server.baseUrl}/invite/`);
    const invitee = await newSession(browser, server.baseUrl);
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: 'Create your account' }).waitFor();
    const emailField = invitee.page.getByLabel('Email address');
    expect(await emailField.inputValue()).toBe(email);
    expect(await emailField.isEditable()).toBe(false);
    await invitee.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invitee.page.getByLabel('Verify password').fill(PASSWORD);
    await screenshot(invitee.page, 'invitation-signup');
    await invitee.page.getByRole('button', { name: 'Create account' }).click();
    await invitee.page.waitForURL('**/home');
    await invitee.page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    await invitee.context.close();

    // The list was read before the sign-up; a reload reads it afresh.
    await page.reload();
    await accountRow(page, email).first().waitFor();
    await expect.poll(() => accountRow(page, email).count()).toBe(1);
    await expect.poll(() => accountRow(page, email).textContent()).toContain('Active');
    await screenshot(page, 'admin-users');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: 'Invitations' }).click();
    await page.getByRole('list', { name: 'Invitations' }).getByRole('listitem').filter({ hasText: email }).getByText('Accepted').waitFor();

    const again = await newSession(browser, server.baseUrl);
    await again.page.goto(link);
    await again.page.getByRole('heading', { name: 'This invitation does not exist or has expired' }).waitFor();
    await screenshot(again.page, 'invitation-gone');
    await again.context.close();
  });
});

describe('sharing between accounts', () => {
  const folders = (page: Page) => page.getByRole('listbox', { name: 'Folders' });
  const files = (page: Page) => page.getByRole('listbox', { name: 'Files' });
  const people = (page: Page) => page.getByRole('region', { name: 'People with access' });

  /** Adds a person to the selected item's people with access, in the details panel. */
  async function addPerson(page: Page, email: string, role: 'Viewer' | 'Editor'): Promise<void> {
    await people(page).getByRole('textbox', { name: 'E-mail of the person to add' }).fill(email);
    await people(page).getByRole('combobox', { name: 'Role of the person to add' }).selectOption({ label: role });
    await people(page).getByRole('button', { name: 'Add', exact: true }).click();
    await people(page).getByRole('listitem').filter({ hasText: email }).waitFor();
  }

  /** Opens the folder another account shared, from "Shared with me". */
  async function openSharedFolder(page: Page, name: string): Promise<void> {
    await mainMenu(page).getByRole('link', { name: 'Shared with me' }).click();
    await page.getByRole('heading', { name: 'Shared with me' }).waitFor();
    await folders(page).getByRole('option', { name }).dblclick();
    await page.waitForURL('**/folder/**');
  }

  it('an editor uploads into a folder shared with them, and the owner sees the file; a viewer cannot add', async () => {
    const owner = await signedInAccount('owner');
    const editor = await signedInAccount('editor');
    const viewer = await signedInAccount('viewer');
    const folder = await apiCreateFolder(owner.page, 'Family photos');
    await owner.page.reload();
    await folders(owner.page).getByRole('option', { name: 'Family photos' }).click();
    await people(owner.page).waitFor();
    await addPerson(owner.page, editor.email, 'Editor');
    await addPerson(owner.page, viewer.email, 'Viewer');
    await expect
      .poll(() =>
        people(owner.page)
          .getByRole('combobox', { name: `Role of ${editor.email}` })
          .inputValue(),
      )
      .toBe('editor');
    await screenshot(owner.page, 'people-with-access');

    await openSharedFolder(editor.page, 'Family photos');
    await expect.poll(() => editor.page.getByTestId('shared-by').textContent()).toBe(`Shared by ${owner.email} · Editor`);
    await editor.page.getByRole('button', { name: 'ADD NEW' }).first().click();
    const [chooser] = await Promise.all([
      editor.page.waitForEvent('filechooser'),
      editor.page.getByRole('menuitem', { name: 'Upload Files' }).click(),
    ]);
    await chooser.setFiles({ name: 'beach.txt', mimeType: 'text/plain', buffer: Buffer.from('sand and sea') });
    await editor.page.getByRole('region', { name: 'Uploads' }).getByRole('heading', { name: 'Uploaded 1 file(s)' }).waitFor();
    await files(editor.page).getByRole('option', { name: 'beach.txt' }).waitFor();
    await screenshot(editor.page, 'shared-folder-editor');

    await owner.page.goto(`/folder/${folder._id}`);
    await files(owner.page).getByRole('option', { name: 'beach.txt' }).waitFor();
    expect((await apiList(owner.page, { parent: folder._id })).map((f) => f.filename)).toEqual(['beach.txt']);

    await openSharedFolder(viewer.page, 'Family photos');
    await expect.poll(() => viewer.page.getByTestId('shared-by').textContent()).toBe(`Shared by ${owner.email} · Viewer`);
    await files(viewer.page).getByRole('option', { name: 'beach.txt' }).waitFor();
    await expect.poll(() => viewer.page.getByRole('button', { name: 'ADD NEW' }).first().isDisabled()).toBe(true);
    await screenshot(viewer.page, 'shared-folder-viewer');

    await Promise.all([owner.context.close(), editor.context.close(), viewer.context.close()]);
  });
});

describe('disabled accounts', () => {
  it('disabling an account signed in elsewhere sends it to sign-in and refuses it until enabled again', async () => {
    const user = await signedInAccount('member');
    const { page } = admin;
    await openAdminUsers(page);
    await accountAction(page, user.email, 'Disable account');
    await toast(page, `${user.email} is disabled`);
    await expect.poll(() => accountRow(page, user.email).textContent()).toContain('Disabled');

    await mainMenu(user.page).getByRole('link', { name: 'Trash' }).click();
    await user.page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await login(user.page, user.email);
    await formMessage(user.page).getByText('This account is disabled. Ask your administrator to enable it.').waitFor();
    await screenshot(user.page, 'sign-in-disabled');

    await accountAction(page, user.email, 'Enable account');
    await toast(page, `${user.email} can sign in again`);
    await expect.poll(() => accountRow(page, user.email).textContent()).toContain('Active');
    // The message stays until the form changes; typing the password again sends the same attempt once more.
    await user.page.getByLabel('Password', { exact: true }).fill('');
    await user.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await submitButton(user.page).click();
    // Back on the page the account was sent away from.
    await user.page.waitForURL('**/trash');
    await mainMenu(user.page).getByRole('link', { name: 'Trash' }).and(user.page.locator('[aria-current="page"]')).waitFor();
    await user.context.close();
  });
});
