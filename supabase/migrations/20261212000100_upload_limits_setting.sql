-- The upload limits become platform settings (ADR 065): the largest image and the largest package
-- a seller can upload, in MB. The storage's and the request body's caps (2 MB an image, 10 MB a
-- package) stay the most a setting can allow; an admin can lower them.
alter table public.platform_settings
  add column max_image_mb integer not null default 2
    constraint platform_settings_image_range check (max_image_mb between 1 and 2),
  add column max_package_mb integer not null default 10
    constraint platform_settings_package_range check (max_package_mb between 1 and 10);
grant update (max_image_mb, max_package_mb) on public.platform_settings to authenticated;
grant select (max_image_mb, max_package_mb) on public.platform_settings to anon;
