import { execFileSync } from "node:child_process";
import { expect, horizontalOverflow, seriousAccessibilityViolations, test } from "./fixtures";

test.setTimeout(180_000);
const SLOW = { timeout: 30_000 };
const TEAMMATE = { email: "teammate-e2e@example.com", password: "teammate-e2e-password" };

/** A second developer account, made with the admin CLI on the e2e server's database. */
function createTeammate() {
  execFileSync("npm", ["run", "--silent", "admin", "--", "user", "create", "--email", TEAMMATE.email, "--password", TEAMMATE.password, "--role", "DEVELOPER"], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
}

test("an owner invites a teammate, who accepts through the link and rotates the team's secret as its admin", async ({ signInAs }) => {
  createTeammate();
  const owner = await signInAs("developer");
  await owner.goto("/settings/teams");
  await expect(owner.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible(SLOW);
  const newTeam = owner.getByRole("region", { name: "New team" });
  await newTeam.getByLabel("Name").fill("E2E Team");
  await newTeam.getByRole("button", { name: "Create team" }).click();
  const ownerCard = owner.getByRole("region", { name: "Team E2E Team" });
  await expect(ownerCard).toContainText("your role: owner");

  await owner.goto("/settings/credentials");
  const form = owner.getByRole("region", { name: "New credential" });
  await form.getByLabel("Application").fill("Team App");
  await form.getByLabel("Team").selectOption({ label: "E2E Team" });
  await form.getByLabel("Environment").selectOption({ label: "Platform Development" });
  await form.getByRole("button", { name: "Create credential" }).click();
  await expect(owner.getByRole("region", { name: "New client secret" })).toBeVisible();
  await expect(owner.getByRole("heading", { name: /Team E2E Team/ })).toBeVisible();

  await owner.goto("/settings/teams");
  await ownerCard.getByLabel("Email to invite").fill(TEAMMATE.email);
  await ownerCard.getByLabel("Role", { exact: true }).selectOption("admin");
  await ownerCard.getByRole("button", { name: "Invite" }).click();
  const shown = ownerCard.getByRole("region", { name: "Invitation link" });
  await expect(shown.getByRole("alert")).toContainText("shown only once");
  const link = (await shown.getByTestId("invitation-link").textContent()) ?? "";
  expect(link).toMatch(/\/teams\/invitations\/[A-Za-z0-9_-]{43}$/);
  await expect(ownerCard).toContainText(`${TEAMMATE.email} as admin`);
  expect(await seriousAccessibilityViolations(owner)).toEqual([]);

  const teammate = await signInAs(TEAMMATE);
  await teammate.goto(new URL(link).pathname);
  await expect(teammate.getByText("You are invited to join")).toContainText("E2E Team");
  expect(await seriousAccessibilityViolations(teammate)).toEqual([]);
  await teammate.getByRole("button", { name: "Join E2E Team" }).click();
  await expect(teammate).toHaveURL(/\/settings\/teams$/, SLOW);
  const teammateCard = teammate.getByRole("region", { name: "Team E2E Team" });
  await expect(teammateCard).toContainText("your role: admin");
  await expect(teammateCard).toContainText("Team App");
  await teammate.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(teammate)).toBeLessThanOrEqual(0);
  expect(await seriousAccessibilityViolations(teammate)).toEqual([]);

  await teammate.goto("/settings/credentials");
  const credential = teammate.getByRole("listitem", { name: "Team App in Platform Development" });
  await credential.getByRole("button", { name: "Rotate secret" }).click();
  const secret = teammate.getByRole("region", { name: "New client secret" });
  await expect(secret.getByTestId("client-secret")).toHaveText(/^gsk_/);

  await teammate.goto(new URL(link).pathname);
  await expect(teammate.getByText("was accepted already")).toBeVisible();
});

test("an owner cancels a pending invitation, whose link then no longer works", async ({ signInAs }) => {
  const owner = await signInAs("developer");
  await owner.goto("/settings/teams");
  const newTeam = owner.getByRole("region", { name: "New team" });
  await newTeam.getByLabel("Name").fill("E2E Cancel");
  await newTeam.getByRole("button", { name: "Create team" }).click();
  const card = owner.getByRole("region", { name: "Team E2E Cancel" });
  await card.getByLabel("Email to invite").fill("cancelled-e2e@example.com");
  await card.getByRole("button", { name: "Invite" }).click();
  const link = (await card.getByRole("region", { name: "Invitation link" }).getByTestId("invitation-link").textContent()) ?? "";
  const invitation = card.getByRole("listitem", { name: "Invitation cancelled-e2e@example.com" });
  await expect(invitation).toContainText("sent by developer@example.com");
  expect(await seriousAccessibilityViolations(owner)).toEqual([]);

  await invitation.getByRole("button", { name: "Cancel the invitation of cancelled-e2e@example.com" }).click();
  await expect(invitation).toHaveCount(0);
  await owner.goto(new URL(link).pathname);
  await expect(owner.getByText("This invitation link is not valid")).toBeVisible();
});
