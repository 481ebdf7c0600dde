import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signIn } from './support.ts';
import { apiToken, password } from './workflow.ts';

async function setRoles(request: APIRequestContext, token: string, userId: string, roles: string[]) {
  const response = await request.put(`/v1/admin/users/${userId}/roles`, { headers: { authorization: `Bearer ${token}` }, data: { roles } });
  expect(response.status()).toBe(200);
}

test('a person’s menu gains and loses the editor space the moment an administrator changes their roles', async ({
  page,
  request,
  cast,
}) => {
  // A learner of this spec, whom the administrator makes an editor and then a learner again.
  const managed = cast.learner2.email;
  const admin = await apiToken(request, cast.admin.email);
  const found = await request.get(`/v1/admin/users?filter=q==${encodeURIComponent(managed)}`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(found.status()).toBe(200);
  const [person] = ((await found.json()) as { data: { data: { id: string; email: string }[] } }).data.data.filter(
    (u) => u.email === managed,
  );
  expect(person).toBeDefined();

  await signIn(page, managed, password);
  const menu = page.getByTestId('left-menu');
  const editorSpace = menu.locator('a[href="/editor"]');
  await expect(menu.getByRole('link', { name: 'Tableau de bord', exact: true })).toBeVisible();
  await expect(editorSpace).toHaveCount(0);

  // No reload, no sign-out: the open page follows.
  await setRoles(request, admin, person!.id, ['learner', 'editor']);
  await expect(editorSpace).toBeVisible();
  await editorSpace.click();
  await expect(page).toHaveURL(/\/editor$/);
  await menu.getByRole('link', { name: 'Tableau de bord', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(editorSpace).toBeVisible();

  await setRoles(request, admin, person!.id, ['learner']);
  await expect(editorSpace).toHaveCount(0);
});
