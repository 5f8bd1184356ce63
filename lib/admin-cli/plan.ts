import { noPositionals } from "./args";
import { type CommandGroup, command } from "./command";

const list = command({ usage: "plan list", summary: "Lists the plans, with their limits, approval and the APIs that offer them." }, async (args) => {
  noPositionals(args);
  const [{ db }, { listPlans }] = await Promise.all([import("../db"), import("../subscriptions/list-subscriptions")]);
  const plans = await listPlans({ db: db() });
  return {
    plans: plans.map((plan) => ({
      slug: plan.slug,
      name: plan.name,
      rateLimit: `${plan.rateLimit.perSecond}/s burst ${plan.rateLimit.burst}`,
      quota: `${plan.quota.requests} per ${plan.quota.period}`,
      approval: plan.approval,
      apis: plan.apis.join(", "),
    })),
  };
});

export const commands: CommandGroup = { list };
