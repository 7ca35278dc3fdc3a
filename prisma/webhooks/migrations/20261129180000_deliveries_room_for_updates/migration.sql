-- Room on each page of `deliveries` for a row's next version. A delivery is
-- updated twice after its insert: its attempt counted (attempt_count only, no
-- indexed column), then how it ended (status, which an index holds). An
-- update that changes no indexed column and finds room on the row's own page
-- is heap-only: no new entry in any of the table's five indexes. With pages
-- filled to the brim (the default), none of them was. Pages written from now
-- on keep the room.
ALTER TABLE "deliveries" SET (fillfactor = 80);
