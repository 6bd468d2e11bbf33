import { Guard } from 'toolguard';

// The built-in policy (plus your user, project and managed policy files).
const guard = new Guard({ builtin: true });
for (const command of ['git status', 'rm -rf ~']) {
  const decision = guard.check({ tool: 'Bash', args: { command }, context: { cwd: process.cwd() } });
  console.log(`${command}: ${decision.verdict} (${decision.reason})`);
}
guard.close();
