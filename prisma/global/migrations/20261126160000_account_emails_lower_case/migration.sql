-- Account emails are stored lower-cased (provisioning lower-cases them), so
-- that a workspace member row, lower-cased too, is matched by plain equality
-- and names at most one account. Rows from before provisioning did so are
-- brought in line, unless another account already holds the lower-cased
-- address: such a row is left as it is and matches no member row (only the
-- account whose address is already lower-cased does) until an operator
-- resolves the pair.
UPDATE "accounts" AS a SET "email" = lower(a."email")
WHERE a."email" <> lower(a."email")
  AND NOT EXISTS (SELECT 1 FROM "accounts" AS b WHERE b."email" = lower(a."email"));
