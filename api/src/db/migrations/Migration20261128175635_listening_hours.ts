import { Migration } from '@mikro-orm/migrations';

export class Migration20261128175635_listening_hours extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "listening_hours" ("user_id" uuid not null, "file_id" uuid not null, "hour" timestamptz not null, "seconds" double precision not null, constraint "listening_hours_pkey" primary key ("user_id", "file_id", "hour"));`);
    this.addSql(`create index "listening_hours_hour_index" on "listening_hours" ("hour");`);

    this.addSql(`alter table "listening_hours" add constraint "listening_hours_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "listening_hours" add constraint "listening_hours_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);

    // Listening time, credited by the database on every progress save whatever path wrote it
    // (docs/listening-stats.md). A save adds the wall-clock seconds since the previous save of the
    // same file only when the position moved forward no faster than the fastest playback rate (3x,
    // plus 2 s of slack): a seek or a jump adds nothing. The credit is at most the seconds the
    // position moved (a pause in between is not listening), at most 20 s (two of the player's
    // 10-second saves: a pause, seek and resume between two saves cannot add more), and at most the
    // seconds since the user's latest save of any file, so saves of several files at once (or from
    // several devices) never add up to more than the wall clock. The per-user advisory lock makes
    // that last read see a concurrent save of another file.
    this.addSql(`create function "credit_listening_time"() returns trigger language plpgsql as $$
declare
  elapsed double precision := extract(epoch from new.updated_at - old.updated_at);
  moved double precision := new.position - old.position;
  since_latest double precision;
  credit double precision;
begin
  if elapsed <= 0 or moved <= 0 or moved > elapsed * 3 + 2 then
    return new;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('listening_time:' || new.user_id::text, 0));
  select extract(epoch from new.updated_at - max(updated_at)) into since_latest
    from "listening_progress" where user_id = new.user_id;
  credit := least(elapsed, moved, 20, since_latest);
  if credit > 0 then
    insert into "listening_hours" (user_id, file_id, hour, seconds)
      values (new.user_id, new.file_id, date_trunc('hour', new.updated_at, 'UTC'), credit)
      on conflict (user_id, file_id, hour) do update set seconds = "listening_hours".seconds + excluded.seconds;
  end if;
  return new;
end
$$;`);
    this.addSql(`create trigger "listening_progress_credit_time" before update on "listening_progress" for each row execute function "credit_listening_time"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "listening_progress_credit_time" on "listening_progress";`);
    this.addSql(`drop function if exists "credit_listening_time"();`);
    this.addSql(`drop table if exists "listening_hours" cascade;`);
  }

}
