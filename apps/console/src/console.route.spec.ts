import { hashOf, routeFromHash } from './console.route';

describe("the console's routes in the address's fragment", () => {
  it("reads the Forms screen, a form's webhooks and a page of a delivery log", () => {
    expect(routeFromHash('')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms/abc/webhooks')).toEqual({ screen: 'webhooks', formId: 'abc' });
    expect(routeFromHash('#/forms/abc/insights')).toEqual({ screen: 'insights', formId: 'abc' });
    expect(routeFromHash('#/forms/abc/insights/more')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms/abc/edit')).toEqual({ screen: 'builder', formId: 'abc' });
    expect(routeFromHash('#/forms/abc/edit/more')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms/abc/webhooks/my-hook/deliveries')).toEqual({
      screen: 'deliveries',
      formId: 'abc',
      tag: 'my-hook',
      page: {},
    });
    expect(routeFromHash('#/forms/abc/webhooks/h/deliveries?before=d1')).toMatchObject({
      page: { before: 'd1' },
    });
    expect(routeFromHash('#/forms/abc/webhooks/h/deliveries?after=d2')).toMatchObject({
      page: { after: 'd2' },
    });
  });

  it('writes what it reads', () => {
    for (const route of [
      { screen: 'forms' },
      { screen: 'webhooks', formId: 'f 1' },
      { screen: 'insights', formId: 'f/2' },
      { screen: 'builder', formId: 'f?3' },
      { screen: 'deliveries', formId: 'f', tag: 'a.b', page: {} },
      { screen: 'deliveries', formId: 'f', tag: 'a', page: { before: 'x/y' } },
      { screen: 'deliveries', formId: 'f', tag: 'a', page: { after: 'z' } },
    ] as const) {
      expect(routeFromHash(hashOf(route))).toEqual(route);
    }
  });

  it('falls back to the Forms screen on anything else, and takes one cursor at most', () => {
    expect(routeFromHash('#/somewhere')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms//webhooks')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms/%E0%A4%A/webhooks')).toEqual({ screen: 'forms' });
    expect(routeFromHash(`#/forms/${'x'.repeat(101)}/webhooks`)).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms/f/webhooks/t/deliveries/more')).toEqual({ screen: 'forms' });
    expect(routeFromHash('#/forms/f/webhooks/t')).toEqual({ screen: 'webhooks', formId: 'f' });
    expect(routeFromHash('#/forms/f/webhooks/t/deliveries?before=a&after=b')).toMatchObject({
      page: { before: 'a' },
    });
    expect(routeFromHash(`#/forms/f/webhooks/t/deliveries?before=${'y'.repeat(65)}`)).toMatchObject({
      page: {},
    });
  });
});
