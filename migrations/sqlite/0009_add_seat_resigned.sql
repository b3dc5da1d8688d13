-- 0009_add_seat_resigned.sql - resignation (issue 21).
--
-- resigned: the seat's player resigned. In a game that goes on after a
-- resignation (three seats or more, a person still playing), the server's
-- bot plays the seat from then on. Bookkeeping like the game row's status:
-- written in the same transaction as the resignation's log row
-- ({"cairn":"resign"}), which stays the truth.
ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1));
