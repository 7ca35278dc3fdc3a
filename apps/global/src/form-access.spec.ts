import { type FormNeed, formNeeds } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { normalizeForm } from '@formline/form-definition';
import { allows, FormAccess } from './form-access';
import type { FormRepository, StoredForm } from './form.repository';
import type { WorkspaceAccess, WorkspaceMemberRole, WorkspaceRepository } from './workspace.repository';

const form: StoredForm = {
  id: 'form1',
  accountId: 'owner-account',
  region: 'eu',
  title: 'Shared',
  workspaceId: 'ws1',
  definition: normalizeForm({ title: 'Shared', fields: [{ ref: 'q', title: 'Q?', type: 'short_text' }] }),
  version: 1,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
};

// Who holds which role in workspace ws1 (owned by owner-account), by account id.
const roles: Record<string, WorkspaceMemberRole> = { 'co-owner': 'owner', colleague: 'member' };
const reachedAs: Record<WorkspaceAccess, string> = {
  owning_account: 'owner-account',
  owner: 'co-owner',
  member: 'colleague',
};

function formAccess(): { access: FormAccess; memberLookups: string[] } {
  const memberLookups: string[] = [];
  const forms = {
    findAnywhere: (formId: string) => Promise.resolve(formId === form.id ? form : undefined),
  } as unknown as FormRepository;
  const workspaces = {
    memberRole: (accountId: string, workspaceId: string) => {
      memberLookups.push(accountId);
      return Promise.resolve(workspaceId === 'ws1' ? roles[accountId] : undefined);
    },
    access: (accountId: string, workspaceId: string) => {
      if (workspaceId !== 'ws1') return Promise.resolve(undefined);
      if (accountId === 'owner-account')
        return Promise.resolve({ accountId: 'owner-account', access: 'owning_account' });
      const role = roles[accountId];
      return Promise.resolve(role ? { accountId: 'owner-account', access: role } : undefined);
    },
  } as unknown as WorkspaceRepository;
  return { access: new FormAccess(forms, workspaces), memberLookups };
}

async function outcome(accountId: string, formId: string, need: FormNeed): Promise<string> {
  try {
    const reached = await formAccess().access.require(accountId, formId, need);
    return `allowed as ${reached.access}`;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('FormAccess', () => {
  // The whole table: what each way of reaching a form allows.
  const table: Record<FormNeed, Record<WorkspaceAccess, boolean>> = {
    read: { owning_account: true, owner: true, member: true },
    write: { owning_account: true, owner: true, member: true },
    delete: { owning_account: true, owner: true, member: false },
    move: { owning_account: true, owner: true, member: false },
    'responses-read': { owning_account: true, owner: true, member: true },
    'responses-delete': { owning_account: true, owner: true, member: false },
    webhooks: { owning_account: true, owner: false, member: false },
  };
  // Refused without a word of the form: as to a stranger.
  const unseenWhenRefused: FormNeed[] = ['webhooks'];

  it('covers every need', () => {
    expect(Object.keys(table).sort()).toEqual([...formNeeds].sort());
  });

  for (const need of formNeeds) {
    for (const access of Object.keys(reachedAs) as WorkspaceAccess[]) {
      const expected = table[need][access];
      it(`${access} ${expected ? 'may' : 'may not'} ${need}`, async () => {
        expect(allows(access, need)).toBe(expected);
        expect(await outcome(reachedAs[access], form.id, need)).toBe(
          expected
            ? `allowed as ${access}`
            : unseenWhenRefused.includes(need)
              ? ErrorCode.FormNotFound
              : ErrorCode.Forbidden,
        );
      });
    }

    it(`answers ${need} by another account as for a missing form (404)`, async () => {
      expect(await outcome('stranger', form.id, need)).toBe(ErrorCode.FormNotFound);
      expect(await outcome('owner-account', 'no-such-form', need)).toBe(ErrorCode.FormNotFound);
    });
  }

  it('hands back the form with its owning account and region, whoever reaches it', async () => {
    const reached = await formAccess().access.require('colleague', form.id, 'responses-read');
    expect(reached.form).toMatchObject({ accountId: 'owner-account', region: 'eu' });
  });

  it("decides the owning account's own form without looking up memberships", async () => {
    const { access, memberLookups } = formAccess();
    await access.require('owner-account', form.id, 'delete');
    expect(memberLookups).toEqual([]);
  });

  it('says 403 with the documented error body to a member whose role falls short', async () => {
    const refused = await formAccess()
      .access.require('colleague', form.id, 'delete')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).toBody()).toEqual({
      code: 'FORBIDDEN',
      description: expect.stringContaining('only its owners may delete it'),
    });
  });

  describe('putting a form in a workspace', () => {
    it('lets every member create forms there, owned by the owning account', async () => {
      const { access } = formAccess();
      for (const accountId of Object.values(reachedAs))
        expect(await access.requireWorkspace(accountId, 'ws1', 'write')).toEqual({
          accountId: 'owner-account',
        });
    });

    it('lets owners move forms in, not members', async () => {
      const { access } = formAccess();
      expect(await access.requireWorkspace('co-owner', 'ws1', 'move')).toEqual({
        accountId: 'owner-account',
      });
      await expect(access.requireWorkspace('colleague', 'ws1', 'move')).rejects.toMatchObject({
        code: ErrorCode.Forbidden,
      });
    });

    it('does not reach a workspace that is not shared with the caller', async () => {
      expect(await formAccess().access.requireWorkspace('stranger', 'ws1', 'write')).toBeUndefined();
    });
  });
});
