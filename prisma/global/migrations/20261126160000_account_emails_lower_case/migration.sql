-- Account emails are stored lower-cased (provisioning lower-cases them), so
-- that a workspace member row, lower-cased too, is matched by plain equality
-- and names at most one account. Rows from before provisioning did so are
-- brought in line, unless another account holds the same address in any
-- case (already lower-cased, or differing only by case too, where lowering
-- both would break the unique index and fail the migration): such rows are
-- left as they are and match no member row (an account whose address is
-- already lower-cased does) until an operator resolves them.
UPDATE "accounts" AS a SET "email" = lower(a."email")
WHERE a."email" <> lower(a."email")
  AND NOT EXISTS (
    SELECT 1 FROM "accounts" AS b WHERE lower(b."email") = lower(a."email") AND b."id" <> a."id"
  );
