import { newTeam } from './local.ts';

/** A team with a verified sending domain, ready to send. */
export const sendingTeam = async (options: Parameters<typeof newTeam>[0] = {}) => {
  const t = await newTeam({ plan: 'pro', ...options });
  const domain = `${t.team.id.slice(-12)}.example.com`;
  const { data, error } = await t.resend.domains.create({ name: domain });
  if (error) throw new Error(`could not add ${domain}: ${error.message}`);
  await t.resend.domains.verify(data!.id);
  return { ...t, domain, domainId: data!.id, from: `Acme <hello@${domain}>` };
};
