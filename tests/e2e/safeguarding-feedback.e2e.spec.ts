import { expect, test } from '@playwright/test';
import { adminToken, api, createCustomer, createUser, tokenFor } from './support/portal-api.js';

/**
 * Partner feedback by token link (docs/decisions/0030-partner-feedback-links.md): a lead mails a link,
 * an anonymous browser opens it, sends feedback and sees the receipt; the same link then lands on the
 * invalid-token page; the lead's incident page lists the link as used.
 */
const PASSWORD = 'Feedback-e2e-2026!';

test('a partner gives feedback once through a mailed link; the link then is invalid', async ({
  request,
  browser,
}) => {
  const admin = await adminToken(request);
  const oak = await createCustomer(request, admin, 'Oakfield Feedback Academy');
  const user = async (body: Record<string, unknown>) => {
    const res = await api<{ id: string }>(request, admin, 'POST', '/api/v1/users/', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  await user({
    email: 'dsl.feedback@example.com',
    first_name: 'Dana',
    last_name: 'Lead',
    user_type: 'teacher',
    password: PASSWORD,
    permissions: ['CAN_LEAD_SAFEGUARDING'],
  });
  await createUser(request, admin, {
    email: 'head@oak-feedback.example.com',
    first_name: 'Priya',
    last_name: 'Partner',
    user_type: 'partner',
    customer_id: oak,
    customer_type: 'super-admin',
  });
  const student = await createUser(request, admin, {
    email: 'ada@oak-feedback.example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    user_type: 'student',
    customer_id: oak,
  });
  await user({
    email: 'types.feedback@example.com',
    first_name: 'Tia',
    last_name: 'Types',
    user_type: 'super_admin',
    password: PASSWORD,
    permissions: ['CAN_ACCESS_SAFEGUARDING'],
  });
  const typesAdmin = await tokenFor(request, 'types.feedback@example.com', PASSWORD);
  const lead = await tokenFor(request, 'dsl.feedback@example.com', PASSWORD);

  let typeId = '';
  await expect
    .poll(async () => {
      const res = await api<{ id: string }>(
        request,
        typesAdmin,
        'POST',
        '/api/v1/safeguarding-incident-types/',
        {
          name: 'Neglect',
        },
      );
      typeId = res.body.id;
      return res.status;
    })
    .toBe(201);
  let incident = '';
  await expect
    .poll(async () => {
      const res = await api<{ id: string }>(request, admin, 'POST', '/api/v1/safeguarding-incidents/', {
        student_ids: [student],
        type_ids: [typeId],
        occurred_at: new Date(Date.now() - 3_600_000).toISOString(),
        description: 'Internal description the partner must not see',
        immediate_action: 'Spoke to the student',
        lead_told_verbally: true,
      });
      incident = res.body.id;
      return res.status;
    })
    .toBe(201);
  for (const [path, data] of [
    ['acknowledge', {}],
    ['review', {}],
    ['partner-informed', { method: 'phone', note: 'Told the head' }],
  ] as const)
    await expect
      .poll(
        async () =>
          (await api(request, lead, 'POST', `/api/v1/safeguarding-incidents/${incident}/${path}`, data))
            .status,
      )
      .toBe(200);

  // The lead issues the link; it goes out through the outbox.
  await expect
    .poll(
      async () =>
        (
          await api(request, lead, 'POST', `/api/v1/safeguarding-incidents/${incident}/feedback-links`, {
            email: 'head@oak-feedback.example.com',
          })
        ).status,
    )
    .toBe(201);
  const outbox = await api<{ items: { to_address: string; body_text: string }[] }>(
    request,
    admin,
    'GET',
    '/api/v1/mail-outbox',
  );
  const mail = outbox.body.items.find((m) => m.to_address === 'head@oak-feedback.example.com')!;
  const token = /\/safeguarding-incident\/feedback\/([A-Za-z0-9_-]{43})/.exec(mail.body_text)![1]!;

  // An anonymous browser opens it, sends feedback, sees the receipt.
  const partner = await browser.newContext();
  const page = await partner.newPage();
  await page.goto(`/safeguarding-incident/feedback/${token}`);
  await expect(page.getByRole('heading', { name: 'Feedback on a safeguarding incident' })).toBeVisible();
  await expect(page.getByText('Ada L.')).toBeVisible();
  await expect(page.getByText('Neglect')).toBeVisible();
  await expect(page.getByText('Internal description')).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Your feedback' }).fill('Known to us; early help is in place.');
  await page.getByRole('button', { name: 'Send feedback' }).click();
  await expect(page).toHaveURL(
    /\/safeguarding-incident\/feedback\/[0-9a-f-]{36}\/confirm\/[A-Za-z0-9_-]{43}$/,
  );
  await expect(page.getByRole('heading', { name: 'Thank you, your feedback was recorded' })).toBeVisible();
  await expect(page.getByLabel('Your feedback')).toHaveText('Known to us; early help is in place.');

  // The same link again → the invalid-token page.
  await page.goto(`/safeguarding-incident/feedback/${token}`);
  await expect(page).toHaveURL(/\/safeguarding-incident\/feedback\/invalid-token$/);
  await expect(page.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeVisible();
  await partner.close();

  // The lead sees the link used (opened once by the partner) and the incident advanced.
  await expect
    .poll(async () =>
      (
        await api<{ items: { status: string; opens: string[] }[] }>(
          request,
          lead,
          'GET',
          `/api/v1/safeguarding-incidents/${incident}/feedback-links`,
        )
      ).body.items.map((l) => `${l.status}:${l.opens.length}`),
    )
    .toEqual(['used:1']);
  const leadPage = await (await browser.newContext()).newPage();
  await leadPage.goto('/login');
  await leadPage.getByRole('textbox', { name: 'Email' }).fill('dsl.feedback@example.com');
  await leadPage.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await leadPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(leadPage).toHaveURL(/\/dashboard$/);
  await leadPage.goto(`/safeguarding-incidents/${incident}`);
  await expect(leadPage.getByRole('heading', { name: 'Feedback links' })).toBeVisible();
  const row = leadPage.getByTestId('feedback-link');
  await expect(row).toContainText('head@oak-feedback.example.com');
  await expect(row).toContainText('used');
  await expect(leadPage.getByText('Via feedback link: Known to us; early help is in place.')).toBeVisible();
  // The student list is shared by every e2e file: take the test's student out of it (soft delete, ADR 0015).
  expect((await api(request, admin, 'DELETE', `/api/v1/users/${student}`)).status).toBe(200);
});
