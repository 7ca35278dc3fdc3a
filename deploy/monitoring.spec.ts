import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as ops from '@formline/ops';
import { parse } from 'yaml';
import { deployDir } from './checks/manifests';

interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string };
}

// The alerting rules name metrics by string: one the apps do not serve would
// never fire, silently. Each name must be a metric libs/ops declares.
describe('deploy/monitoring alerts', () => {
  const rule = parse(readFileSync(path.join(deployDir, 'monitoring/alerts.yaml'), 'utf8')) as {
    kind: string;
    spec: { groups: Array<{ rules: AlertRule[] }> };
  };
  const alerts = rule.spec.groups.flatMap((group) => group.rules);
  const served = new Set(
    Object.values(ops)
      .map((value) => (value as { name?: unknown } | null)?.name)
      .filter((name): name is string => typeof name === 'string' && name.startsWith('formline_')),
  );

  it('is a PrometheusRule with the outbox, consumer, queue and error-rate alerts', () => {
    expect(rule.kind).toBe('PrometheusRule');
    expect(alerts.map((alert) => alert.alert).sort()).toEqual(
      [
        'FormlineDeliveryQueueBacklog',
        'FormlineEventConsumerLag',
        'FormlineOutboxBacklog',
        'FormlineOutboxDeadLetters',
        'FormlineOutboxStuck',
        'FormlineServerErrors',
      ].sort(),
    );
  });

  it.each(alerts.map((alert) => [alert.alert, alert] as const))(
    '%s names only served metrics',
    (_, alert) => {
      const names = [...alert.expr.matchAll(/\bformline_[a-z_]+/g)].map((match) => match[0]);
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((name) => !served.has(name))).toEqual([]);
      expect(alert).toMatchObject({
        for: expect.stringMatching(/^\d+m$/),
        labels: { severity: expect.stringMatching(/^(warning|critical)$/) },
        annotations: { summary: expect.any(String) },
      });
    },
  );
});
