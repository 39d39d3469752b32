/* ilpm_model_read (ilpm.h): a model file read into a model through the
 * table of formats, as `ilpm solve model FILE` reads it, for a library
 * user who has a file rather than a puzzle. */
#include "mdl.h"

#include <stdlib.h>

int ilpm_model_read(const char *path, const char *format, ilpm_model **out,
                    ilpm_err *err)
{
    *out = NULL;
    if (!path)
        return ilpm_err_input(err, "no model file given");
    int gz = 0, xz = 0;
    const ilpm_file_format *fmt =
        format ? ilpm_format_find(format) : ilpm_format_of_path(path, &gz, &xz);
    if (!fmt || !fmt->reader) {
        char names[256];
        ilpm_format_names(ILPM_FORMATS_READ, 0, "", ", ", names, sizeof names);
        if (format)
            return ilpm_err_input(
                err, "no format '%.64s' to read (formats: %s)", format, names);
        return ilpm_err_input(err,
                              "%s: the format is not known by its name; name "
                              "it (formats: %s)",
                              path, names);
    }
    if ((gz && !(fmt->carries & ILPM_CARRIES_GZIP)) || xz)
        return ilpm_err_input(err, "%s: a compressed %s file is not read here",
                              path, fmt->name);
    mdl *d = ilpm_mdl_read(fmt, path, path, NULL, 0, err);
    if (!d)
        return -1;
    mdl_enc enc = fmt->reader->enc ? fmt->reader->enc : MDL_ENC_BINARY;
    ilpm_model *m = NULL;
    int rc = ilpm_mdl_layout(d, enc, err);
    if (rc == 0 && !(m = ilpm_model_new()))
        rc = ilpm_err_nomem(err, "out of memory reading %s", path);
    if (rc == 0)
        rc = ilpm_mdl_build(d, m, NULL, err);
    ilpm_mdl_free(d);
    if (rc != 0) {
        ilpm_model_free(m);
        return -1;
    }
    *out = m;
    return 0;
}
