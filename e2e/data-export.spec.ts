import { readFile } from 'node:fs/promises';
import { expect, people, test } from './fixtures.ts';
import { firstDraw, sentCase, signedIn } from './cases.ts';

/** The names of the files of a ZIP, read from its central directory (every entry is ZIP64 there). */
function zipNames(zip: Buffer): string[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const zip64End = Number(zip.readBigUInt64LE(eocd - 20 + 8));
  const count = Number(zip.readBigUInt64LE(zip64End + 32));
  let at = Number(zip.readBigUInt64LE(zip64End + 48));
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

test('a learner asks for a copy of their data, downloads it, then deletes their account and keeps the receipt', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { author } = await people(request, { author: { roles: ['learner'], firstName: 'Léa', lastName: 'Export' } });
  const videoId = await sentCase(request, { learner: author });
  const { context, page } = await signedIn(browser, author, { viewport: { width: 390, height: 844 } });

  await page.goto('/my-account?tab=data');
  const section = page.getByTestId('data-export');
  await expect(section.getByRole('heading', { name: 'Mes données' })).toBeVisible(firstDraw);
  await section.getByTestId('data-export-request').click();
  // While it is made, the section says so; then the download appears.
  const download = section.getByTestId('data-export-download');
  await expect(section.getByTestId('data-export-progress').or(download)).toBeVisible();
  await expect(download).toBeVisible({ timeout: 90_000 });
  await expect(section).toContainText('Votre copie est prête');

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const zip = await readFile((await file.path())!);
  const names = zipNames(zip);
  expect(names).toEqual(
    expect.arrayContaining(['LISEZ-MOI.txt', 'profile.json', 'cases.json', 'notifications.json', 'consents.json', 'sign-in-history.json']),
  );
  // The case's video, under its case.
  expect(names.some((n) => n.startsWith(`files/cases/${videoId}/`) && n.endsWith('.mp4'))).toBe(true);

  // Deleting the account ends on its receipt.
  await page.getByTestId('delete-account').click();
  await page.getByTestId('delete-account-password').fill(author.password);
  await page.getByTestId('delete-account-confirmation').fill('SUPPRIMER');
  await page.getByTestId('delete-account-confirm').click();
  await expect(page).toHaveURL(/\/account-deleted$/, { timeout: 30_000 });
  const receipt = page.getByTestId('erasure-receipt');
  await expect(receipt).toBeVisible();
  await expect(page.getByTestId('erasure-erased')).toContainText('Cas : 1');
  await expect(page.getByTestId('erasure-kept')).toContainText('gardées pour leur durée légale');
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('erasure-download').click()]);
  expect(await readFile((await saved.path())!, 'utf8')).toContain('Reçu de suppression de compte');
  await context.close();
});
